#!/usr/bin/env python3
"""A real OBS Studio for tests: OBS started headless under Xvfb with a
configuration of its own (a temporary HOME), its obs-websocket server on a free
loopback port with a password, one scene holding one color source, and
recordings going to a folder of the session's.

    from obs_session import OBSSession
    with OBSSession() as obs:
        obs.url             # ws://127.0.0.1:PORT
        obs.password        # also in obs.password_file (mode 0600)
        obs.recordings      # where StopRecord's outputPath points
        obs.startup_seconds # from starting Xvfb to the websocket port accepting

Or `python3 tests/obs/obs_session.py` to start one and keep it until Ctrl-C.

Needs Debian's obs-studio and xvfb (`apt-get install obs-studio xvfb`); see
tests/obs/README.md for what was found running OBS 29 this way."""

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import TimedOut, free_port, listening, wait_for  # noqa: E402

PROFILE = "Slate"
COLLECTION = "Slate"
SCENE = "Scene"
COLOR_SOURCE = "Color"


def free_display():
    """An X display number with neither a socket nor a lock file."""
    for number in range(90, 400):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            return number
    raise RuntimeError("no free X display number between :90 and :399")


def obs_flags():
    """The command-line flags this OBS lists in --help (they differ between versions)."""
    try:
        text = subprocess.run(["obs", "--help"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return {word.rstrip(":,") for line in text.splitlines() for word in line.split() if word.startswith("--")}


class OBSError(RuntimeError):
    pass


class OBSSession:
    """One OBS under one Xvfb. `start()` returns once the websocket port
    accepts connections; `stop()` ends OBS and Xvfb and, unless `keep`, removes
    the session's folder (recordings included)."""

    def __init__(self, password=None, size=(640, 360), fps=30, rec_format="mkv", replay_buffer_seconds=10,
                 keep=False, root=None):
        self.password = password if password is not None else secrets.token_urlsafe(18)
        self.size = size
        self.fps = fps
        self.rec_format = rec_format
        self.replay_buffer_seconds = replay_buffer_seconds
        self.keep = keep
        self.folder = tempfile.mkdtemp(prefix="slate-obs-", dir=root)
        self.home = os.path.join(self.folder, "home")
        self.config = os.path.join(self.home, ".config")
        self.runtime = os.path.join(self.folder, "run")
        self.recordings = os.path.join(self.folder, "recordings")
        self.password_file = os.path.join(self.folder, "obs-password")
        self.port = None
        self.display = None
        self.xvfb = None
        self.obs = None
        self.startup_seconds = None
        self.command = None
        self.environment = None

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}"

    @property
    def obs_config(self):
        return os.path.join(self.config, "obs-studio")

    @property
    def log_folder(self):
        """OBS's own logs, one file per run."""
        return os.path.join(self.obs_config, "logs")

    def obs_log(self):
        """The text of OBS's newest log, or ''."""
        try:
            names = sorted(os.listdir(self.log_folder))
        except OSError:
            return ""
        if not names:
            return ""
        with open(os.path.join(self.log_folder, names[-1]), errors="replace") as f:
            return f.read()

    def output(self):
        """What OBS printed on stdout and stderr."""
        try:
            with open(os.path.join(self.folder, "obs.out"), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def recording_files(self):
        try:
            return sorted(os.path.join(self.recordings, name) for name in os.listdir(self.recordings))
        except OSError:
            return []

    # Configuration

    def write_config(self):
        for folder in (self.home, self.runtime, self.recordings):
            os.makedirs(folder, exist_ok=True)
        os.chmod(self.runtime, 0o700)
        fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(self.password + "\n")
        with open(self.password_file) as f:
            password = f.read().strip()
        os.makedirs(os.path.join(self.obs_config, "basic", "profiles", PROFILE), exist_ok=True)
        os.makedirs(os.path.join(self.obs_config, "basic", "scenes"), exist_ok=True)
        width, height = self.size
        # obs-websocket 5.1 (OBS 29) reads its settings from global.ini's
        # [OBSWebSocket]; 5.3 and later (OBS 30) from plugin_config's config.json.
        self.write_ini(os.path.join(self.obs_config, "global.ini"), {
            "General": {
                "FirstRun": "true", "LastVersion": "486539266", "EnableAutoUpdates": "false",
                "Pre19Defaults": "false", "Pre21Defaults": "false", "Pre23Defaults": "false",
                "Pre24.1Defaults": "false", "ConfirmOnExit": "false", "WarnBeforeStartingRecord": "false",
                "WarnBeforeStoppingRecord": "false", "WarnBeforeStartingStream": "false",
                "WarnBeforeStoppingStream": "false", "SysTrayEnabled": "false", "MaxLogs": "10",
            },
            "Basic": {
                "Profile": PROFILE, "ProfileDir": PROFILE, "SceneCollection": COLLECTION,
                "SceneCollectionFile": COLLECTION, "ConfigOnNewProfile": "false",
            },
            "BasicWindow": {"PreviewEnabled": "false", "SysTrayMinimizeToTray": "false"},
            "OBSWebSocket": {
                "FirstLoad": "false", "ServerEnabled": "true", "ServerPort": str(self.port),
                "AlertsEnabled": "false", "AuthRequired": "true", "ServerPassword": password,
                "DebugEnabled": "false",
            },
        })
        plugin_config = os.path.join(self.obs_config, "plugin_config", "obs-websocket")
        os.makedirs(plugin_config, exist_ok=True)
        fd = os.open(os.path.join(plugin_config, "config.json"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({
                "first_load": False, "server_enabled": True, "server_port": self.port, "alerts_enabled": False,
                "auth_required": True, "server_password": password,
            }, f, indent=2)
        self.write_ini(os.path.join(self.obs_config, "basic", "profiles", PROFILE, "basic.ini"), {
            "General": {"Name": PROFILE},
            "Video": {
                "BaseCX": str(width), "BaseCY": str(height), "OutputCX": str(width), "OutputCY": str(height),
                "FPSType": "1", "FPSInt": str(self.fps), "ScaleType": "bilinear", "ColorFormat": "NV12",
            },
            "Audio": {"SampleRate": "48000", "ChannelSetup": "Stereo"},
            "Output": {"Mode": "Simple"},
            "SimpleOutput": {
                "FilePath": self.recordings, "RecFormat": self.rec_format, "RecFormat2": self.rec_format,
                "RecQuality": "Small", "RecEncoder": "x264", "StreamEncoder": "x264", "Preset": "ultrafast",
                "VBitrate": "1000", "ABitrate": "128", "FileNameWithoutSpace": "true",
                "RecRB": "true" if self.replay_buffer_seconds else "false",
                "RecRBTime": str(self.replay_buffer_seconds or 20), "RecRBSize": "64",
            },
        })
        color = {
            "id": "color_source_v3", "versioned_id": "color_source_v3", "name": COLOR_SOURCE,
            "uuid": "5d0d1e3a-6f45-4c50-9d0a-3c8f4a1b2c01", "enabled": True, "muted": False, "volume": 1.0,
            "settings": {"color": 4281571839, "width": width, "height": height},
            "private_settings": {}, "flags": 0, "sync": 0, "mixers": 0, "filters": [],
        }
        scene = {
            "id": "scene", "versioned_id": "scene", "name": SCENE,
            "uuid": "5d0d1e3a-6f45-4c50-9d0a-3c8f4a1b2c02", "enabled": True, "muted": False, "volume": 1.0,
            "settings": {
                "id_counter": 1, "custom_size": False,
                "items": [{
                    "name": COLOR_SOURCE, "source_uuid": color["uuid"], "visible": True, "locked": False,
                    "id": 1, "pos": {"x": 0.0, "y": 0.0}, "rot": 0.0, "scale": {"x": 1.0, "y": 1.0},
                    "align": 5, "bounds_type": 0, "bounds_align": 0, "bounds": {"x": 0.0, "y": 0.0},
                    "crop_left": 0, "crop_top": 0, "crop_right": 0, "crop_bottom": 0,
                }],
            },
            "private_settings": {}, "flags": 0, "sync": 0, "mixers": 0, "filters": [],
        }
        with open(os.path.join(self.obs_config, "basic", "scenes", COLLECTION + ".json"), "w") as f:
            json.dump({
                "name": COLLECTION, "current_scene": SCENE, "current_program_scene": SCENE,
                "current_transition": "Fade", "transition_duration": 300, "scene_order": [{"name": SCENE}],
                "sources": [color, scene], "groups": [], "transitions": [], "quick_transitions": [],
                "saved_projectors": [], "preview_locked": False, "scaling_enabled": False,
            }, f, indent=2)

    @staticmethod
    def write_ini(path, sections):
        with open(path, "w") as f:
            for section, values in sections.items():
                f.write(f"[{section}]\n")
                for key, value in values.items():
                    f.write(f"{key}={value}\n")
                f.write("\n")

    # Processes

    def start(self, timeout=90):
        """Starts Xvfb and OBS; returns once OBS's websocket port accepts
        connections, or raises OBSError with OBS's output and log."""
        for tool in ("obs", "Xvfb"):
            if shutil.which(tool) is None:
                raise OBSError(f"{tool} is not installed: apt-get install obs-studio xvfb")
        self.port = free_port()
        self.write_config()
        began = time.monotonic()
        self.display = free_display()
        with open(os.path.join(self.folder, "xvfb.out"), "w") as out:
            self.xvfb = subprocess.Popen(
                ["Xvfb", f":{self.display}", "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-noreset"],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        def xvfb_up():
            if self.xvfb.poll() is not None:
                raise OBSError(f"Xvfb :{self.display} did not start: {self.read('xvfb.out')}")
            return os.path.exists(f"/tmp/.X11-unix/X{self.display}")

        try:
            wait_for(xvfb_up, 10, "Xvfb")
        except TimedOut:
            raise OBSError(f"Xvfb :{self.display} did not start: {self.read('xvfb.out')}") from None
        self.environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home, "XDG_CONFIG_HOME": self.config,
            "XDG_RUNTIME_DIR": self.runtime, "DISPLAY": f":{self.display}", "LANG": "C.UTF-8",
            "QT_QPA_PLATFORM": "xcb", "LIBGL_ALWAYS_SOFTWARE": "1", "GALLIUM_DRIVER": "llvmpipe",
            # OBS's rtmp-services plugin fetches a service list at start: a proxy on
            # loopback that nothing answers keeps that attempt on this machine.
            "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
            "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
            "no_proxy": "127.0.0.1,localhost",
        }
        wanted = ["--multi", "--disable-updater", "--disable-shutdown-check", "--disable-missing-files-check"]
        listed = obs_flags()
        self.command = ["obs"] + [flag for flag in wanted if flag in listed] + [
            "--profile", PROFILE, "--collection", COLLECTION, "--scene", SCENE]
        with open(os.path.join(self.folder, "obs.out"), "w") as out:
            self.obs = subprocess.Popen(
                self.command, cwd=self.home, env=self.environment, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True)
        def websocket_up():
            if self.obs.poll() is not None:
                raise OBSError(f"OBS exited with {self.obs.returncode} before its websocket listened\n"
                               f"--- output:\n{self.output()[-4000:]}\n--- log:\n{self.obs_log()[-6000:]}")
            return listening(self.port)

        try:
            wait_for(websocket_up, timeout, "OBS's websocket", every=0.1)
        except TimedOut:
            raise OBSError(f"OBS's websocket did not listen on {self.port} within {timeout} s\n"
                           f"--- output:\n{self.output()[-4000:]}\n--- log:\n{self.obs_log()[-6000:]}") from None
        self.startup_seconds = time.monotonic() - began
        return self

    def read(self, name):
        try:
            with open(os.path.join(self.folder, name), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    @staticmethod
    def end(process, timeout):
        """SIGTERM to the process's group (OBS's obs-ffmpeg-mux is in it), then
        SIGKILL after `timeout` s; returns the process's exit status."""
        if process is None:
            return None

        def signal_group(number):
            try:
                os.killpg(process.pid, number)
            except ProcessLookupError:
                pass

        if process.poll() is None:
            signal_group(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                signal_group(signal.SIGKILL)
                process.wait()
        signal_group(signal.SIGKILL)
        return process.returncode

    def stop(self):
        """Ends OBS (SIGTERM, SIGKILL after 15 s) and Xvfb; removes the folder unless `keep`.
        Stop a recording through the websocket first, so OBS finishes its file."""
        status = self.end(self.obs, 15)
        self.end(self.xvfb, 5)
        if not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)
        return status

    def __enter__(self):
        return self.start()

    def __exit__(self, *_):
        self.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--password", help="the websocket password (default: a random one)")
    args = parser.parse_args()
    session = OBSSession(password=args.password, keep=True)
    try:
        session.start()
    except OBSError as error:
        print(error, file=sys.stderr)
        session.stop()
        return 1
    print(f"OBS is up in {session.startup_seconds:.1f} s: {session.url}, password file {session.password_file}, "
          f"recordings in {session.recordings}, display :{session.display}; Ctrl-C stops it\n"
          f"export SLATE_OBS_URL={session.url} SLATE_OBS_PASSWORD_FILE={session.password_file}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while session.obs.poll() is None:
            time.sleep(1)
        print(f"OBS exited with {session.obs.returncode}", file=sys.stderr)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        session.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
