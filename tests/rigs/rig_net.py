"""Rigs on one MQTT broker, each in its own network namespace: Mosquitto in
one namespace with a bridge, each `slate run` in another with a veth pair to
it, all of them as the user nobody. Used by three_rigs.py (make test) and
bench_rigs.py (make bench). Needs root, to make the namespaces.
"""

import asyncio
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

NOBODY = pwd.getpwnam("nobody")
AS_NOBODY = ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"]
SUBNET = "10.77.0"
BROKER_ADDRESS = SUBNET + ".1"
PORT = 1883


def why_not_here():
    """Why the rigs cannot run on this machine, or None."""
    if os.geteuid() != 0:
        return "making network namespaces needs root (run make test as root, or in CI)"
    for tool in ("ip", "setpriv", "mosquitto", "mosquitto_passwd", "mosquitto_pub", "mosquitto_sub"):
        if shutil.which(tool) is None:
            return "%s is missing: scripts/install-deps mosquitto mosquitto-clients iproute2 util-linux" % tool
    return None


def run(*argv, **options):
    return subprocess.run(list(argv), check=True, capture_output=True, text=True, **options)


class Network:
    """A broker namespace with a bridge, and one namespace per rig joined to it."""

    def __init__(self, rigs):
        self.tag = "slate%d" % os.getpid()
        self.broker = self.tag + "-broker"
        self.rigs = {}
        run("ip", "netns", "add", self.broker)
        run("ip", "-n", self.broker, "link", "set", "lo", "up")
        run("ip", "-n", self.broker, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", self.broker, "addr", "add", BROKER_ADDRESS + "/24", "dev", "br0")
        run("ip", "-n", self.broker, "link", "set", "br0", "up")
        for index, rig in enumerate(rigs):
            namespace = "%s-%s" % (self.tag, rig)
            run("ip", "netns", "add", namespace)
            run("ip", "-n", namespace, "link", "set", "lo", "up")
            run("ip", "link", "add", "veth%d" % index, "netns", namespace, "type", "veth", "peer", "name",
                "port%d" % index, "netns", self.broker)
            run("ip", "-n", namespace, "addr", "add", "%s.%d/24" % (SUBNET, 10 + index), "dev", "veth%d" % index)
            run("ip", "-n", namespace, "link", "set", "veth%d" % index, "up")
            run("ip", "-n", self.broker, "link", "set", "port%d" % index, "master", "br0")
            run("ip", "-n", self.broker, "link", "set", "port%d" % index, "up")
            self.rigs[rig] = namespace

    def inside(self, namespace):
        return ["ip", "netns", "exec", namespace]

    def remove(self):
        for namespace in [self.broker] + list(self.rigs.values()):
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True)


def broker(network, folder, users):
    """Mosquitto in the broker namespace, as nobody: passwords, and an ACL
    that lets each rig use slate/# and the viewer only read it."""
    return harness.Broker(folder, users, address=BROKER_ADDRESS, port=PORT, inside=network.inside(network.broker),
                          user="nobody")


class Rig(harness.Slate):
    """One `slate run --json` in its namespace, as nobody; its lines read as they come."""

    def __init__(self, network, folder, name, password, replay=None, start_delay=None, timing=False, port=PORT):
        self.name = name
        self.folder = os.path.join(folder, name)
        os.makedirs(self.folder)
        secret = harness.write(os.path.join(self.folder, "password"), password + "\n", mode=0o600)
        mqtt = "mqtt:\n  broker: mqtt://%s:%d\n  rig: %s\n  username: %s\n  password-file: %s\n  keep-alive: 5s\n%s" % (
            BROKER_ADDRESS, port, name, name, secret, "  start-delay: %s\n" % start_delay if start_delay else "")
        self.profile = harness.write(os.path.join(self.folder, "rig.yaml"), harness.profile(
            "%s, one of three rigs on one broker." % name, {"KEY_B": "rigs take.toggle"},
            more="sounds:\n  feedback: false\n" + mqtt))
        for path in [self.folder] + [os.path.join(self.folder, entry) for entry in os.listdir(self.folder)]:
            os.chown(path, NOBODY.pw_uid, NOBODY.pw_gid)
        self.work = os.path.join(self.folder, "takes")
        args = ["run", "--profile", self.profile, "--work", self.work, "--output", self.folder, "--json"]
        if replay:
            args += ["--replay", replay]
        if timing:
            args.append("--timing")
        super().__init__(args, wrap=network.inside(network.rigs[name]) + AS_NOBODY + ["env", "HOME=" + self.folder])

    def started(self):
        return self.matching(harness.is_take("started"))

    def stop(self):
        return super().stop(30)

    def takes(self):
        with open(os.path.join(self.work, "takes.json")) as handle:
            return json.load(handle)["takes"]


class SlowLink:
    """A TCP relay in the broker's namespace that holds every chunk `delay_ms`
    each way: a rig joined through it is that far from the broker."""

    def __init__(self, network, port, delay_ms):
        self.process = subprocess.Popen(
            network.inside(network.broker) + AS_NOBODY + [sys.executable, os.path.abspath(__file__), "relay", str(port),
                                                           str(delay_ms)])
        try:
            harness.wait_for(lambda: harness.listening(port, BROKER_ADDRESS, network.inside(network.broker)), 10,
                             "the relay to listen")
        except harness.TimedOut:
            raise SystemExit("the relay on port %d did not listen" % port) from None

    def stop(self):
        self.process.terminate()
        self.process.wait()


def relay(port, delay_ms):
    """Listens on BROKER_ADDRESS:port and passes each connection on to the broker, `delay_ms` late each way."""
    delay = delay_ms / 1000

    async def pipe(reader, writer):
        loop = asyncio.get_running_loop()
        held = asyncio.Queue()

        async def deliver():
            while True:
                due, chunk = await held.get()
                if chunk is None:
                    break
                await asyncio.sleep(max(0, due - loop.time()))
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(deliver())
        while True:
            chunk = await reader.read(65536)
            await held.put((loop.time() + delay, chunk or None))
            if not chunk:
                break
        await sender

    async def serve(reader, writer):
        upstream_reader, upstream_writer = await asyncio.open_connection(BROKER_ADDRESS, PORT)
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True)

    async def main():
        server = await asyncio.start_server(serve, BROKER_ADDRESS, port)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def client(network, rig, user, password, *argv):
    """mosquitto_pub or mosquitto_sub from a rig's namespace, as `user`."""
    return subprocess.run(
        network.inside(network.rigs[rig]) + AS_NOBODY + [argv[0], "-h", BROKER_ADDRESS, "-p", str(PORT), "-u", user, "-P",
                                                       password] + list(argv[1:]),
        capture_output=True, text=True, timeout=30)


def origin_ns(rig):
    """CLOCK_REALTIME at the rig's t = 0, from its first started line (t and realtime_ns of one first frame)."""
    line = rig.started()[0]
    return line["realtime_ns"] - round(line["t"] * 1e9)


def spreads(rigs, takes):
    """Each take's spread (ms) of first frames across `rigs`, from their started lines."""
    started = [rig.started() for rig in rigs]
    result = []
    for index in range(takes):
        instants = [lines[index]["realtime_ns"] for lines in started if len(lines) > index]
        if len(instants) == len(rigs):
            result.append((max(instants) - min(instants)) / 1e6)
    return result


def folder():
    made = tempfile.mkdtemp(prefix="slate-rigs-")
    os.chmod(made, 0o755)
    return made


if __name__ == "__main__" and sys.argv[1:2] == ["relay"]:
    relay(int(sys.argv[2]), float(sys.argv[3]))
