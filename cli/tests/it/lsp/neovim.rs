//! Neovim as the client, headless, when `nvim` is on PATH (the test
//! says it is skipped otherwise; CI installs Debian's `neovim`, 0.7): a
//! facet edited without saving, the diagnostic Neovim shows for it, and
//! a hover on one of its expressions. The client is started as
//! docs/lsp.md says for Neovim before 0.8 (`start_client`), which every
//! later version keeps.

use super::session::Session;
use crate::support::{BPVM, examples};
use std::process::{Command, Stdio};

/// Opens the facet, misspells a dependency, starts `bpvm lsp`, waits for
/// diagnostics, hovers `${cluster.workers.count}` and writes both to a
/// file.
const SCRIPT: &str = r#"
local root = vim.env.BPVM_ROOT
vim.cmd("edit " .. root .. "/contexts/_template/facets/provider-aws.yaml")
vim.cmd([[%s/dependsOn: \[network\]/dependsOn: [netwrk]/]])
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({ name = "bpvm", cmd = { vim.env.BPVM, "lsp" }, root_dir = root })
vim.lsp.buf_attach_client(buf, client)
vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format("%d:%d %s", d.lnum, d.col, d.message))
end
local line = vim.fn.search("cluster.workers.count") - 1
local col = vim.fn.col(".") - 1
local params = { textDocument = vim.lsp.util.make_text_document_params(buf), position = { line = line, character = col } }
local answers = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 60000) or {}
for _, answer in pairs(answers) do
  local contents = answer.result and answer.result.contents
  if contents then
    -- One line: writefile would write each newline as a NUL.
    local text = (contents.value or vim.inspect(contents)):gsub("\n", " ")
    table.insert(out, "hover: " .. text)
  end
end
vim.fn.writefile(out, root .. "/diagnostics.txt")
vim.cmd("qa!")
"#;

#[test]
fn neovim_shows_the_diagnostic_of_an_unsaved_edit() {
    let found = Command::new("nvim").arg("--version").stdout(Stdio::null()).status();
    if !found.is_ok_and(|s| s.success()) {
        eprintln!("skipped: neovim_shows_the_diagnostic_of_an_unsaved_edit: nvim is not on PATH");
        return;
    }
    // The session's own server is not used: Neovim starts its own.
    let s = Session::over(&examples().join("windsor"));
    std::fs::write(s.path("check.lua"), SCRIPT).unwrap();
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", s.path("check.lua").display()))
        .env("BPVM_ROOT", &s.root)
        .env("BPVM", BPVM)
        .status()
        .unwrap();
    assert!(status.success());
    let shown = std::fs::read_to_string(s.path("diagnostics.txt")).unwrap();
    let mut lines = shown.lines();
    assert_eq!(
        lines.next(),
        Some("15:16 \"netwrk\" names no terraform component of the template; did you mean \"network\"?")
    );
    // The value of the path in the context Neovim's server chose.
    let hover = lines.collect::<Vec<_>>().join("\n");
    assert!(hover.starts_with("hover: ``` cluster.workers.count ```"), "{shown}");
    assert!(hover.contains("**3** in context `local`"), "{shown}");
}
