#![no_main]
//! The server's first look at every frame: any bytes either parse into a `ClientFrame` that
//! serializes and parses back to itself, or are refused with an error; never a panic.

use jungle_protocol::ClientFrame;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(frame) = serde_json::from_str::<ClientFrame>(text) {
        let again = serde_json::to_string(&frame).expect("frames serialize");
        let back: ClientFrame = serde_json::from_str(&again).expect("serialized frames parse");
        assert_eq!(back, frame);
        if let ClientFrame::Seek { clock, .. } | ClientFrame::CreateRoom { clock, .. } = frame {
            let _ = clock.validate();
        }
    }
});
