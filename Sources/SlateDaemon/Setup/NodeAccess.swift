import SlateCore
import SlateDevices
import SlateSystem

extension DeviceAccess {
    /// What gives this user the input node it could not open (`error`): the
    /// advice for its group and Slate's udev tag; nil when the error is not a permission's.
    public func advice(for node: UdevInputNode, after error: OperationError) -> String? {
        guard error.isPermissionDenied else { return nil }
        let group = LoginSeat.group(of: node.devnode)
        return advice(
            group: group?.name, listed: group?.listed ?? false, taggedBySlate: node.properties["SLATE_DEVICE"] == "1")
    }
}
