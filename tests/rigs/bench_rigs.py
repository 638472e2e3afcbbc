"""Benchmark: how far apart three rigs' takes start, with and without `at`.

Three `slate run` (test pattern, 640x360 at 30 fps) in their own network
namespaces on one Mosquitto, as three_rigs.py sets them up, at different
distances from it: cam-a next to it, cam-b 15 ms and cam-c 45 ms away each
way (a relay holds their traffic; these kernels have no netem), as rigs on
Wi-Fi or another switch are. First cam-a's
replayed pedal starts and stops 10 takes with `rigs take.toggle` (each
start timed `start-delay`, 150 ms, ahead); then 10 more are started and
stopped by a plain MQTT client publishing {"action": "take.start"} with no
`at` on slate/all/cmd, which each rig runs on arrival, as a tool that sends
one command to many boxes does. For each take: the spread of the three
first frames on CLOCK_REALTIME. For the pedal's takes: from the press (the
pedal's key down) to the last rig's `started` line, on CLOCK_REALTIME.
"""

import json
import os
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import rig_net  # noqa: E402

TAKES = 10
PEDAL = [(1.0 + 2.5 * index, 2.5 + 2.5 * index) for index in range(TAKES)]
PLAIN_FROM = PEDAL[-1][1] + 2.0
END = PLAIN_FROM + 2.5 * TAKES + 4.0
USERS = {"cam-a": "pass-a", "cam-b": "pass-b", "cam-c": "pass-c"}
DISTANCE_MS = {"cam-a": 0, "cam-b": 15, "cam-c": 45}


def summary(values):
    ordered = sorted(values)
    return "median %.1f ms, worst %.1f ms (%d takes)" % (statistics.median(ordered), ordered[-1], len(ordered))


def main():
    reason = rig_net.why_not_here()
    if reason:
        raise SystemExit("bench_rigs: " + reason)
    folder = rig_net.folder()
    network = rig_net.Network(["cam-a", "cam-b", "cam-c"])
    rigs = []
    links = []
    broker = None
    try:
        broker = rig_net.broker(network, folder, USERS)
        ports = {}
        for index, (name, distance) in enumerate(DISTANCE_MS.items()):
            ports[name] = rig_net.PORT
            if distance:
                ports[name] = rig_net.PORT + 1 + index
                links.append(rig_net.SlowLink(network, ports[name], distance))
        recording = harness.devices.write_session(os.path.join(folder, "pedal.evemu"),
                                                  [time for take in PEDAL for time in take], END)
        rigs = [rig_net.Rig(network, folder, name, USERS[name], timing=True, port=ports[name]) for name in ("cam-b", "cam-c")]
        for rig in rigs:
            if not rig.wait_log("joined mqtt://", 20, raises=False):
                raise SystemExit("%s did not join the broker:\n%s" % (rig.name, rig.log()))
        cam_a = rig_net.Rig(network, folder, "cam-a", USERS["cam-a"], replay=recording, timing=True, port=ports["cam-a"])
        rigs.insert(0, cam_a)
        began = time.monotonic()
        for index in range(TAKES):
            for action, at in (("take.start", PLAIN_FROM + 2.5 * index), ("take.stop", PLAIN_FROM + 2.5 * index + 1.5)):
                time.sleep(max(0, at - (time.monotonic() - began)))
                rig_net.client(network, "cam-a", "cam-a", USERS["cam-a"], "mosquitto_pub", "-q", "1", "-t", "slate/all/cmd",
                               "-m", json.dumps({"action": action, "id": "plain-%s-%d" % (action, index)}))
        cam_a.wait(END + 60)
        time.sleep(2)
        started = [rig.started() for rig in rigs]
        if any(len(lines) != 2 * TAKES for lines in started):
            raise SystemExit("not every rig started every take: %s" % [len(lines) for lines in started])
        spreads = rig_net.spreads(rigs, 2 * TAKES)
        origins = [rig_net.origin_ns(rig) for rig in rigs]
        presses = [line["t"] for line in cam_a.lines
                   if line["type"] == "capture" and line["phase"] == "began"][0::2][:TAKES]
        latencies = []
        for index, press in enumerate(presses):
            press_ns = origins[0] + round(press * 1e9)
            printed = [origin + round(lines[index]["dispatched"] * 1e9) for origin, lines in zip(origins, started)]
            latencies.append((max(printed) - press_ns) / 1e6)
        print("three rigs on one broker, test pattern 640x360 at 30 fps (a frame is 33.3 ms), in network namespaces,")
        print("  cam-a next to the broker, cam-b 15 ms and cam-c 45 ms away each way")
        print("  first frames' spread, synchronized (rigs take.start, at = press + 150 ms): " + summary(spreads[:TAKES]))
        print("  first frames' spread, without at (each rig starts on arrival):          " + summary(spreads[TAKES:]))
        print("  press to the last rig's started line (150 ms start-delay included):     " + summary(latencies))
        print("  spreads with at:    " + ", ".join("%.1f" % value for value in spreads[:TAKES]))
        print("  spreads without at: " + ", ".join("%.1f" % value for value in spreads[TAKES:]))
    finally:
        for rig in rigs:
            rig.stop()
        for link in links:
            link.stop()
        if broker:
            broker.kill()
        network.remove()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
