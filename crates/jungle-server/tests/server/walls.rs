//! The walls of the code (issue 48), checked where the compiler alone would not:
//! - between crates, from `cargo metadata`: each crate stands on a layer and depends only on
//!   crates of lower layers (so the store never reaches a feature, a feature never reaches the
//!   server); the pure crates have nothing that does I/O or async among their dependencies,
//!   however deep;
//! - inside a crate, from its sources: its top-level modules form no circle (`crate::x` and
//!   `super::x` paths), as the client's modules form none (`e2e/tests/modules.test.mjs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Every crate of the workspace on its layer, lowest first. A crate may depend only on crates
/// of a lower layer; a new crate must be placed here before the test passes.
const LAYERS: &[(&str, u8)] = &[
    // The rules of the game.
    ("jungle-rules", 0),
    // The engine (search on the rules) and the wire types.
    ("jungle-engine", 1),
    ("jungle-protocol", 1),
    // The browser client's files, compressed at build time.
    ("jungle-assets", 1),
    // Web Push's cryptography: keys, signatures, encrypted messages.
    ("jungle-push", 1),
    // The game domain, pure: session, clock, ratings, arena, puzzles, records.
    ("jungle-game", 2),
    // The database and the game writer: they serve every feature and know none.
    ("jungle-store", 3),
    ("jungle-limits", 3),
    // The rooms: the task of each game, matchmaking, the computer, fair play at run time.
    ("jungle-rooms", 4),
    // The HTTP plumbing every feature shares: who a request is from, origins, refusals.
    ("jungle-web", 4),
    // The features: each owns its routes, limits, queries and wiring.
    ("jungle-puzzles", 5),
    ("jungle-mail", 5),
    ("jungle-accounts", 5),
    // Features that stand on the accounts.
    ("jungle-learn", 6),
    ("jungle-correspondence", 6),
    ("jungle-tournaments", 6),
    ("jungle-web-push", 6),
    // The nodes: above what they carry between them.
    ("jungle-cluster", 7),
    // The Bot API reaches games wherever they run.
    ("jungle-bot-api", 8),
    // The server: HTTP, WebSocket, and the assembly of all the rest.
    ("jungle-server", 9),
    // Tools that drive a server from outside.
    ("jungle-cli", 10),
    ("jungle-load", 10),
];

/// Crates that must stay pure: no I/O, no async runtime, no database, however deep.
const PURE: &[&str] = &[
    "jungle-rules",
    "jungle-engine",
    "jungle-protocol",
    "jungle-game",
    "jungle-push",
];

/// Crates that do I/O or run an async runtime: none may be reached from a pure crate.
const IO_CRATES: &[&str] = &[
    "tokio",
    "mio",
    "async-std",
    "smol",
    "futures-io",
    "sqlx",
    "sqlx-core",
    "rusqlite",
    "libsqlite3-sys",
    "redis",
    "axum",
    "hyper",
    "reqwest",
    "lettre",
    "tungstenite",
    "tokio-tungstenite",
    "socket2",
    "tracing-subscriber",
];

/// The workspace as cargo resolves it for this machine's platform (a dependency only for
/// another target, such as uuid's `js-sys` on wasm, is no dependency here).
fn metadata() -> Value {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc = std::process::Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .expect("rustc names its host");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--filter-platform",
            &host,
        ])
        .current_dir(WORKSPACE)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON")
}

/// The workspace's packages by name, with their manifest's directory.
fn members(meta: &Value) -> BTreeMap<String, (String, PathBuf)> {
    let ids: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap())
        .collect();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| ids.contains(p["id"].as_str().unwrap()))
        .map(|p| {
            let name = p["name"].as_str().unwrap().to_owned();
            let manifest = PathBuf::from(p["manifest_path"].as_str().unwrap());
            let id = p["id"].as_str().unwrap().to_owned();
            (name, (id, manifest.parent().unwrap().to_owned()))
        })
        .collect()
}

/// Package id → the ids of its normal (not dev, not build) dependencies, as resolved.
fn normal_dependencies(meta: &Value) -> BTreeMap<String, Vec<String>> {
    meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| {
            let deps = node["deps"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| {
                    d["dep_kinds"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|k| k["kind"].is_null())
                })
                .map(|d| d["pkg"].as_str().unwrap().to_owned())
                .collect();
            (node["id"].as_str().unwrap().to_owned(), deps)
        })
        .collect()
}

/// The name of the package with this id, as `cargo metadata` lists it.
fn name_of(id: &str, names: &BTreeMap<String, String>) -> String {
    names.get(id).cloned().unwrap_or_default()
}

#[test]
fn every_crate_depends_only_on_lower_layers_and_the_pure_ones_do_no_io() {
    let meta = metadata();
    let members = members(&meta);
    let deps = normal_dependencies(&meta);
    let names: BTreeMap<String, String> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_owned(),
                p["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let layer: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (name, (id, _)) in &members {
        let Some(&own) = layer.get(name.as_str()) else {
            wrong.push(format!("{name} is on no layer: place it in LAYERS"));
            continue;
        };
        for dep in &deps[id] {
            let dep_name = name_of(dep, &names);
            if let Some(&theirs) = layer.get(dep_name.as_str()) {
                if theirs >= own {
                    wrong.push(format!(
                        "{name} (layer {own}) depends on {dep_name} (layer {theirs})"
                    ));
                }
            }
        }
    }
    for pure in PURE {
        let (id, _) = &members[*pure];
        // Every package reached through normal dependencies, with the path that reached it.
        let mut reached: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut queue = vec![(id.clone(), vec![pure.to_string()])];
        while let Some((at, path)) = queue.pop() {
            for dep in &deps[&at] {
                if reached.contains_key(dep) {
                    continue;
                }
                let mut longer = path.clone();
                longer.push(name_of(dep, &names));
                reached.insert(dep.clone(), longer.clone());
                queue.push((dep.clone(), longer));
            }
        }
        for path in reached.values() {
            if IO_CRATES.contains(&path.last().unwrap().as_str()) {
                wrong.push(format!("{pure} is pure, but reaches {}", path.join(" → ")));
            }
        }
    }
    assert!(wrong.is_empty(), "walls broken:\n{}", wrong.join("\n"));
}

#[test]
fn the_metadata_read_shows_the_server_on_tokio_and_above_the_store() {
    // The checks above pass only if they can fail: the server reaches tokio, and depends on
    // crates of lower layers, never the other way.
    let meta = metadata();
    let members = members(&meta);
    let deps = normal_dependencies(&meta);
    let (server, _) = &members["jungle-server"];
    let (store, _) = &members["jungle-store"];
    assert!(deps[server].iter().any(|d| d.contains("tokio@")));
    assert!(deps[server].contains(store));
    assert!(!deps[store].contains(server));
}

/// A crate's source files, each with its module path (`["rooms", "room"]`; `[]` for the root).
fn source_modules(src: &Path) -> Vec<(Vec<String>, PathBuf)> {
    fn walk(dir: &Path, prefix: &[String], out: &mut Vec<(Vec<String>, PathBuf)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(stem);
                walk(&path, &inner, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut module = prefix.to_vec();
                match stem.as_str() {
                    "lib" | "main" if prefix.is_empty() => {}
                    "mod" => {}
                    _ => module.push(stem),
                }
                out.push((module, path));
            }
        }
    }
    let mut out = Vec::new();
    walk(src, &[], &mut out);
    out
}

/// The top-level modules a file's code names, by `crate::x` or by `super::…` climbing to
/// the crate's root. Comments are left out: a doc link is no dependency.
fn named_top_modules(module: &[String], text: &str, tops: &BTreeSet<String>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap();
        for (at, _) in code.match_indices("crate::") {
            if at > 0 && code[..at].ends_with('$') {
                continue;
            }
            let rest = &code[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if tops.contains(&name) {
                named.insert(name);
            }
        }
        for (at, _) in code.match_indices("super::") {
            // Only a path's first `super` counts; `super::super::` climbs further.
            if at >= "super::".len() && code[..at].ends_with("super::") {
                continue;
            }
            let mut rest = &code[at..];
            let mut depth = 0;
            while let Some(next) = rest.strip_prefix("super::") {
                depth += 1;
                rest = next;
            }
            // A file's own module is `module`; each `super` climbs one. Tests inside a file
            // (`mod tests { use super::* }`) climb from one deeper, which this reads as the
            // file's parent: at worst an edge too many, never one too few.
            if depth >= module.len() {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if tops.contains(&name) {
                    named.insert(name);
                }
            }
        }
    }
    named
}

/// Top-level module → the top-level modules it names, for one crate's `src`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = source_modules(src);
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|(m, _)| m.first().cloned())
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, path) in &files {
        let Some(top) = module.first() else { continue };
        let text = std::fs::read_to_string(path).unwrap();
        let entry = graph.entry(top.clone()).or_default();
        for named in named_top_modules(module, &text, &tops) {
            if &named != top {
                entry.insert(named);
            }
        }
    }
    graph
}

/// The graph's strongly connected components of more than one module (Tarjan's).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<BTreeSet<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = BTreeSet::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    component.insert(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

#[test]
fn the_circle_finder_finds_circles_and_none_where_there_is_none() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    let found = circles(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0], ["a", "b", "c"].map(String::from).into());
    assert!(circles(&graph(&[("a", "b"), ("a", "c"), ("b", "c")])).is_empty());
    let tops: BTreeSet<String> = ["rooms", "store"].map(String::from).into();
    let text = "use crate::rooms::Room;\n// crate::store in a comment\nuse super::super::store::X;";
    let named = named_top_modules(&["a".into(), "b".into()], text, &tops);
    assert_eq!(named, tops);
}

#[test]
fn no_crate_has_a_circle_among_its_modules() {
    let meta = metadata();
    let mut wrong = Vec::new();
    for (name, (_, dir)) in members(&meta) {
        for circle in circles(&module_graph(&dir.join("src"))) {
            wrong.push(format!("{name}: modules in a circle: {circle:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
