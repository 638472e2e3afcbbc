"""A Mosquitto broker for the tests: anonymous on loopback, or with passwords
and an ACL, in a network namespace of its own and as another user when asked;
its log in a file."""

import grp
import os
import pwd
import signal
import subprocess
import tempfile

from .core import TimedOut, free_port, listening, wait_for


class Broker:
    """Mosquitto listening on address:port (default: loopback, a free port).

    users: {user: password}: anonymous clients are refused, each user has a
    password, and the ACL lets each read and write slate/#, but `viewer`
    only read it. Without users, anyone may connect. No message size limit
    but Mosquitto's own.
    inside: a command prefix that runs it in a network namespace (such as
    `ip netns exec NAME`); user: the user it runs as (setpriv), who then owns
    its files. Its configuration, password file, ACL and log
    (mosquitto.log, both its outputs: a pipe nobody reads would fill and
    stall it) are in `folder`. Started at once; start() again after kill()."""

    def __init__(self, folder, users=None, address="127.0.0.1", port=None, inside=(), user=None):
        self.folder = folder
        self.address = address
        self.port = port or free_port(address)
        self.inside = list(inside)
        self.owner = pwd.getpwnam(user) if user else None
        self.as_user = ["setpriv", "--reuid", user, "--regid", grp.getgrgid(self.owner.pw_gid).gr_name,
                        "--clear-groups"] if user else []
        self.config = os.path.join(folder, "mosquitto.conf")
        lines = ["listener %d %s" % (self.port, address)]
        if users:
            self.passwords = os.path.join(folder, "passwords")
            for index, (name, password) in enumerate(users.items()):
                subprocess.run(["mosquitto_passwd"] + (["-c"] if index == 0 else []) + ["-b", self.passwords, name,
                                                                                         password],
                               check=True, capture_output=True, text=True)
            self.acl = os.path.join(folder, "acl")
            with open(self.acl, "w") as out:
                for name in users:
                    out.write("user %s\ntopic %s slate/#\n\n" % (name, "read" if name == "viewer" else "readwrite"))
            lines += ["allow_anonymous false", "password_file " + self.passwords, "acl_file " + self.acl]
            files = [self.passwords, self.acl, self.config]
        else:
            lines.append("allow_anonymous true")
            files = [self.config]
        lines += ["persistence false", "log_dest stderr", "log_type error", "log_type warning", "log_type notice"]
        with open(self.config, "w") as out:
            out.write("\n".join(lines) + "\n")
        for path in files:
            if self.owner:
                os.chown(path, self.owner.pw_uid, self.owner.pw_gid)
                os.chmod(path, 0o600)
            else:
                # A broker started as root runs on as the user mosquitto, who must read them.
                os.chmod(path, 0o644)
        if not self.owner:
            os.chmod(folder, 0o755)
        self.log = open(os.path.join(folder, "mosquitto.log"), "a")
        self.process = None
        self.start()

    @property
    def url(self):
        return "mqtt://%s:%d" % (self.address, self.port)

    def start(self):
        """Starts it; returns once it listens."""
        self.process = subprocess.Popen(self.inside + self.as_user + ["mosquitto", "-c", self.config],
                                        stdout=self.log, stderr=self.log)
        try:
            wait_for(lambda: listening(self.port, self.address, self.inside), 10, "mosquitto to listen")
        except TimedOut:
            raise SystemExit("mosquitto did not listen on %s:%d; its log: %s" % (
                self.address, self.port, self.log.name)) from None

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)

    def client(self, program, *args, user=None, password=None, inside=()):
        """The command line of mosquitto_pub or mosquitto_sub (`program`) on
        this broker, as `user`, from the namespace `inside`."""
        login = ["-u", user, "-P", password] if user else []
        return list(inside) + [program, "-h", self.address, "-p", str(self.port)] + login + list(args)

    def publish(self, topic, payload, retain=False, file=None):
        """Publishes `payload` (or the file `file`) at QoS 1."""
        if file is None:
            with tempfile.NamedTemporaryFile("w", delete=False, suffix=".json") as out:
                out.write(payload)
            file = out.name
        argv = self.client("mosquitto_pub", "-t", topic, "-q", "1", "-f", file) + (["-r"] if retain else [])
        subprocess.run(argv, check=True, timeout=30)
