import CAV
import SlateCore

/// Digital zoom for cameras without an optical one: the centred crop that
/// `ZoomRamp` gives, scaled back to the full frame size with libswscale.
final class DigitalZoom {
    private var scaler: OpaquePointer?
    private var cropSize = (width: 0, height: 0)

    deinit { sws_freeContext(scaler) }

    /// `frame` zoomed by `ramp`'s current factor (the frame itself at 1x).
    func apply(_ frame: VideoFrame, ramp: ZoomRamp) -> VideoFrame {
        guard ramp.factor > 1 else { return frame }
        let crop = ramp.crop(width: frame.width, height: frame.height)
        guard crop.width < frame.width || crop.height < frame.height else { return frame }
        if scaler == nil || cropSize != (crop.width, crop.height) {
            sws_freeContext(scaler)
            scaler = sws_getContext(
                Int32(crop.width), Int32(crop.height), AV_PIX_FMT_YUV420P, Int32(frame.width), Int32(frame.height),
                AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
            cropSize = (crop.width, crop.height)
        }
        guard let scaler else { return frame }
        var out = VideoFrame(width: frame.width, height: frame.height, time: frame.time)
        let chromaX = crop.x / 2, chromaY = crop.y / 2
        let sourceStrides: [Int32] = [Int32(frame.width), Int32(frame.chromaWidth), Int32(frame.chromaWidth), 0]
        let outStrides: [Int32] = [Int32(out.width), Int32(out.chromaWidth), Int32(out.chromaWidth), 0]
        frame.y.withUnsafeBufferPointer { y in
            frame.u.withUnsafeBufferPointer { u in
                frame.v.withUnsafeBufferPointer { v in
                    out.y.withUnsafeMutableBufferPointer { oy in
                        out.u.withUnsafeMutableBufferPointer { ou in
                            out.v.withUnsafeMutableBufferPointer { ov in
                                let source: [UnsafePointer<UInt8>?] = [
                                    y.baseAddress! + crop.y * frame.width + crop.x,
                                    u.baseAddress! + chromaY * frame.chromaWidth + chromaX,
                                    v.baseAddress! + chromaY * frame.chromaWidth + chromaX, nil,
                                ]
                                let destination: [UnsafeMutablePointer<UInt8>?] = [
                                    oy.baseAddress, ou.baseAddress, ov.baseAddress, nil,
                                ]
                                _ = sws_scale(
                                    scaler, source, sourceStrides, 0, Int32(crop.height), destination, outStrides)
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
