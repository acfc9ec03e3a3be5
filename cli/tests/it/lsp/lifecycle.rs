//! The protocol's lifecycle and bad input: what the server advertises,
//! requests it does not handle, parameters that do not parse, documents
//! it does not have, places past a document's end, and how it ends.

use super::client::{Client, uri};
use super::expected;
use serde_json::{Value, json};

#[test]
fn initialize_advertises_what_is_implemented_and_shutdown_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let (client, result) = Client::initialized(dir.path());
    expected::matches("initialize", &result, dir.path());
    assert_eq!(client.shut_down(), Some(0));
}

#[test]
fn a_request_it_does_not_handle_is_method_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let (mut client, _) = Client::initialized(dir.path());
    let position = json!({ "textDocument": { "uri": "file:///a.yaml" }, "position": { "line": 0, "character": 0 } });
    let response = client.call("textDocument/rename", position);
    assert_eq!(response["error"]["code"], -32601, "{response}");
    assert_eq!(
        response["error"]["message"],
        "bpvm lsp does not handle textDocument/rename"
    );
    assert_eq!(client.shut_down(), Some(0));
}

#[test]
fn parameters_that_do_not_parse_are_invalid_params_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (mut client, _) = Client::initialized(dir.path());
    // A notification with bad parameters has no answer: it is passed over.
    client.notify("textDocument/didOpen", json!({ "textDocument": 7 }));
    for (method, params) in [
        ("textDocument/hover", json!({ "position": "here" })),
        ("textDocument/codeAction", json!([])),
        ("textDocument/definition", json!({ "position": "here" })),
        // References need their context.
        (
            "textDocument/references",
            json!({ "textDocument": { "uri": "file:///a.yaml" }, "position": { "line": 0, "character": 0 } }),
        ),
        (
            "workspace/executeCommand",
            json!({ "command": "bpvm.selectContext", "arguments": [] }),
        ),
        (
            "workspace/executeCommand",
            json!({ "command": "bpvm.other", "arguments": ["x"] }),
        ),
    ] {
        let response = client.call(method, params);
        assert_eq!(response["error"]["code"], -32602, "{method}: {response}");
    }
    let response = client.call(
        "workspace/executeCommand",
        json!({ "command": "bpvm.other", "arguments": ["x"] }),
    );
    assert_eq!(
        response["error"]["message"],
        "no command bpvm.other: the one command is bpvm.selectContext"
    );
    let response = client.call("workspace/executeCommand", json!({ "command": "bpvm.selectContext" }));
    assert_eq!(
        response["error"]["message"],
        "bpvm.selectContext takes one argument, the context's name"
    );
    assert_eq!(client.shut_down(), Some(0));
}

#[test]
fn requests_on_unknown_documents_and_past_the_end_have_empty_answers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().canonicalize().unwrap().join("notes.yaml");
    std::fs::write(&file, "a: 1\n").unwrap();
    let (mut client, _) = Client::initialized(dir.path());
    let at = |uri: &str, line: u32, character: u32| json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
    assert_eq!(
        client.request("textDocument/hover", at("file:///no/such.yaml", 0, 0)),
        Value::Null
    );
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": "file:///no/such.yaml" } }),
    );
    assert_eq!(symbols, json!([]));
    let uri = uri(&file);
    let doc = json!({ "uri": uri, "languageId": "yaml", "version": 1, "text": "a: 1\n" });
    client.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    for (line, character) in [(0, 999), (99, 0), (u32::MAX, u32::MAX)] {
        assert_eq!(
            client.request("textDocument/hover", at(&uri, line, character)),
            Value::Null
        );
        assert_eq!(
            client.request("textDocument/definition", at(&uri, line, character)),
            Value::Null
        );
        let mut params = at(&uri, line, character);
        params["context"] = json!({ "includeDeclaration": true });
        assert_eq!(client.request("textDocument/references", params), json!([]));
    }
    assert_eq!(client.shut_down(), Some(0));
}

#[test]
fn closing_the_input_ends_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let (client, _) = Client::initialized(dir.path());
    assert_eq!(client.hang_up(), Some(0));
}

#[test]
fn a_client_that_does_not_initialize_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut client = Client::start(dir.path());
    client.notify("initialized", json!({}));
    assert_eq!(client.hang_up(), Some(1));
}
