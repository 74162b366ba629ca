//! Decoding a client text frame into a [`ClientMsg`] with a precise error.

use serde_json::Value;

use super::{ClientMsg, ErrorCode, ProtoError, CLIENT_TYPES};

/// Longest text frame the server reads, in bytes; longer ones get `too_large`.
pub const MAX_TEXT_BYTES: usize = 4096;

/// Types whose message has no data.
const UNIT_TYPES: &[&str] = &["lobby_subscribe", "lobby_unsubscribe", "quick_pair_cancel"];

/// Decodes one text frame: `too_large`, `bad_message` (not JSON, no `t`, wrong fields)
/// or `unknown_type`, each with a message naming what was wrong.
pub fn decode_client_msg(text: &str) -> Result<ClientMsg, ProtoError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(ProtoError::new(
            ErrorCode::TooLarge,
            format!(
                "message of {} bytes is over the limit of {MAX_TEXT_BYTES}",
                text.len()
            ),
        ));
    }
    // A well-formed message (nearly every one) is read in one pass; the slower path
    // below only runs to name what is wrong, or to supply a missing `d`.
    if let Ok(msg) = serde_json::from_str::<ClientMsg>(text) {
        return Ok(msg);
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ProtoError::new(ErrorCode::BadMessage, format!("not JSON: {e}")))?;
    let Value::Object(mut object) = value else {
        return Err(ProtoError::new(
            ErrorCode::BadMessage,
            "expected a JSON object {\"t\": type, \"d\": data}",
        ));
    };
    let Some(t) = object.get("t").and_then(Value::as_str).map(str::to_owned) else {
        return Err(ProtoError::new(
            ErrorCode::BadMessage,
            "field \"t\" must be a string",
        ));
    };
    let t = t.as_str();
    if !CLIENT_TYPES.contains(&t) {
        return Err(ProtoError::new(
            ErrorCode::UnknownType,
            format!("unknown message type {t:?}"),
        ));
    }
    if !object.contains_key("d") && !UNIT_TYPES.contains(&t) {
        object.insert("d".into(), Value::Object(Default::default()));
    }
    serde_json::from_value(Value::Object(object))
        .map_err(|e| ProtoError::new(ErrorCode::BadMessage, format!("bad {t:?} message: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            decode_client_msg("nope").unwrap_err().code,
            ErrorCode::BadMessage
        );
        assert_eq!(
            decode_client_msg("{}").unwrap_err().code,
            ErrorCode::BadMessage
        );
        assert_eq!(
            decode_client_msg(r#"{"t":5}"#).unwrap_err().code,
            ErrorCode::BadMessage
        );
        let e = decode_client_msg(r#"{"t":"dance"}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::UnknownType);
        assert!(e.message.contains("dance"));
        let e =
            decode_client_msg(r#"{"t":"move","d":{"table":"x","path":5,"ack":1}}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadMessage);
        assert!(e.message.contains("move"), "{}", e.message);
        let big = format!(r#"{{"t":"ping","d":{{"pad":"{}"}}}}"#, "x".repeat(5000));
        assert_eq!(
            decode_client_msg(&big).unwrap_err().code,
            ErrorCode::TooLarge
        );
        assert_eq!(
            decode_client_msg(r#"{"t":"ping"}"#),
            Ok(ClientMsg::Ping { n: 0 })
        );
    }

    #[test]
    fn well_formed_messages_decode_whatever_their_field_order() {
        let a = decode_client_msg(r#"{"t":"move","d":{"table":"x","path":"a1-b2","ack":7}}"#);
        let b = decode_client_msg(r#"{"d":{"ack":7,"path":"a1-b2","table":"x"},"t":"move"}"#);
        assert_eq!(a.unwrap(), b.unwrap());
        assert_eq!(
            decode_client_msg(r#"{"d":{"n":3},"t":"ping"}"#).unwrap(),
            ClientMsg::Ping { n: 3 }
        );
    }
}
