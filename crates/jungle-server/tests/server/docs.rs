//! Documents held to the code: `docs/timers.md` lists every duration constant of every crate,
//! by name and file, so that "one place lists every timer" stays true as timers are added.

use std::path::{Path, PathBuf};

const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Every `const NAME: Duration` in `crates/*/src`, as (`NAME`, its file below `crates/jungle-`).
fn duration_constants() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let crates = Path::new(WORKSPACE).join("crates");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if src.is_dir() {
            walk(&src, &mut files);
        }
    }
    let mut found = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(&crates)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // `jungle-rooms/src/lobby.rs` → `rooms/lobby.rs`, as the table writes it.
        let shown = relative
            .trim_start_matches("jungle-")
            .replacen("/src/", "/", 1);
        if shown.contains("/tests") || shown.ends_with("tests.rs") {
            continue;
        }
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let line = line.trim_start();
            let rest = line
                .strip_prefix("pub const ")
                .or_else(|| line.strip_prefix("pub(crate) const "))
                .or_else(|| line.strip_prefix("pub(super) const "))
                .or_else(|| line.strip_prefix("const "));
            let Some((name, ty)) = rest.and_then(|r| r.split_once(':')) else {
                continue;
            };
            let ty = ty.trim_start();
            if ty.starts_with("Duration ") || ty.starts_with("std::time::Duration ") {
                found.push((name.trim().to_owned(), shown.clone()));
            }
        }
    }
    found
}

#[test]
fn every_duration_constant_is_listed_in_timers_md() {
    let doc = std::fs::read_to_string(Path::new(WORKSPACE).join("docs/timers.md")).unwrap();
    let constants = duration_constants();
    assert!(
        constants.len() > 30,
        "the scan finds the constants: {constants:?}"
    );
    let missing: Vec<_> = constants
        .iter()
        .filter(|(name, file)| {
            !doc.lines()
                .any(|l| l.starts_with(&format!("| `{name}` | `{file}` |")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/timers.md has no row for (name, file): {missing:?}"
    );
}
