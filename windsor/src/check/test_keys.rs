//! The test files' keys and case names, as `bpvm test` reads them: the
//! same problems, as findings.

use super::rules::{TEST_DUPLICATE_NAME, TEST_IGNORED_KEY, TEST_UNKNOWN_KEY};
use crate::format::Format;
use crate::load::project::{Project, TEMPLATE, files_under};
use crate::test::keys::{Kind, problems};
use bpvm_checker::Finding;
use bpvm_runtime::locate::Located;
use bpvm_runtime::{Typing, Value};

/// Every key and name problem of the template's test files.
pub(super) fn findings(project: &Project) -> Vec<Finding> {
    let root = &project.root;
    let mut files = Vec::new();
    if files_under(root, &format!("{TEMPLATE}/tests"), &[".test.yaml"], &mut files).is_err() {
        return Vec::new();
    }
    let v09 = matches!(project.format, Format::V09);
    let mut out = Vec::new();
    for file in files {
        let Ok(text) = root.read_string(root.dir(), &file) else {
            continue;
        };
        // A file that does not read is `bpvm test`'s to report.
        let Ok(doc) = Value::from_yaml_as(&text, Typing::GoYaml) else {
            continue;
        };
        let located = Located::new(&text);
        for p in problems(&doc, v09) {
            let rule = match p.kind {
                Kind::Unknown => &TEST_UNKNOWN_KEY,
                Kind::Ignored => &TEST_IGNORED_KEY,
                Kind::Duplicate => &TEST_DUPLICATE_NAME,
            };
            let f = Finding::new(rule, file.clone(), p.at.clone(), p.message);
            out.push(match located.as_ref().and_then(|l| l.find(&p.at)) {
                Some((line, column)) => f.at(line, column),
                None => f,
            });
        }
    }
    out
}
