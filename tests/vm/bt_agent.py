#!/usr/bin/python3
"""A BlueZ pairing agent for the rig VM, as a rig's own would be set up:
capability NoInputNoOutput (Just Works), registered as bluetoothd's default
agent, accepting every pairing and service it is asked about. It prints each
request on stdout, so a scenario can show what BlueZ asked.

Usage: tests/vm/bt_agent.py   (runs until killed; needs bluetoothd on the system bus)
"""

import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

PATH = "/slate/agent"


class Agent(dbus.service.Object):
    def say(self, *words):
        print(" ".join(str(word) for word in words), flush=True)

    @dbus.service.method("org.bluez.Agent1", in_signature="", out_signature="")
    def Release(self):
        self.say("release")

    @dbus.service.method("org.bluez.Agent1", in_signature="os", out_signature="")
    def AuthorizeService(self, device, uuid):
        self.say("authorize-service", device, uuid)

    @dbus.service.method("org.bluez.Agent1", in_signature="o", out_signature="")
    def RequestAuthorization(self, device):
        self.say("authorize", device)

    @dbus.service.method("org.bluez.Agent1", in_signature="ou", out_signature="")
    def RequestConfirmation(self, device, passkey):
        self.say("confirm", device, passkey)

    @dbus.service.method("org.bluez.Agent1", in_signature="o", out_signature="s")
    def RequestPinCode(self, device):
        self.say("pin", device)
        return "0000"

    @dbus.service.method("org.bluez.Agent1", in_signature="o", out_signature="u")
    def RequestPasskey(self, device):
        self.say("passkey", device)
        return dbus.UInt32(0)

    @dbus.service.method("org.bluez.Agent1", in_signature="ouq", out_signature="")
    def DisplayPasskey(self, device, passkey, entered):
        self.say("display-passkey", device, passkey)

    @dbus.service.method("org.bluez.Agent1", in_signature="os", out_signature="")
    def DisplayPinCode(self, device, pincode):
        self.say("display-pin", device, pincode)

    @dbus.service.method("org.bluez.Agent1", in_signature="", out_signature="")
    def Cancel(self):
        self.say("cancel")


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    Agent(bus, PATH)
    manager = dbus.Interface(bus.get_object("org.bluez", "/org/bluez"), "org.bluez.AgentManager1")
    manager.RegisterAgent(PATH, "NoInputNoOutput")
    manager.RequestDefaultAgent(PATH)
    print("agent registered", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    sys.exit(main())
