//! Neovim as the client, headless, when `nvim` is on PATH (the test
//! says it is skipped otherwise): the setup docs/lsp.md gives, a facet
//! edited without saving, and the diagnostic Neovim shows for it.

use super::session::Session;
use crate::support::{BPVM, examples};
use std::process::{Command, Stdio};

/// Opens the facet, misspells a dependency, starts `bpvm lsp` as
/// docs/lsp.md says, waits for diagnostics and writes them to a file.
const SCRIPT: &str = r#"
local root = vim.env.BPVM_ROOT
vim.cmd.edit(root .. "/contexts/_template/facets/provider-aws.yaml")
vim.cmd([[%s/dependsOn: \[network\]/dependsOn: [netwrk]/]])
local buf = vim.api.nvim_get_current_buf()
vim.lsp.start({ name = "bpvm", cmd = { vim.env.BPVM, "lsp" }, root_dir = root })
vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format("%d:%d %s", d.lnum, d.col, d.message))
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
    assert_eq!(
        shown,
        "15:16 \"netwrk\" names no terraform component of the template; did you mean \"network\"?\n"
    );
}
