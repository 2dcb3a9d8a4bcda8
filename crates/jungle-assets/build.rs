//! Embeds the client (`static/`): every file, its strong ETag (a SHA-256 of its bytes), and
//! for text its brotli and gzip forms when they are smaller, all made here once so that a
//! request costs no compression. Writes `assets.rs` into OUT_DIR, included by the crate.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Files worth compressing: text. Fonts (woff2) and images are compressed already.
const TEXT: &[&str] = &[
    "html",
    "js",
    "mjs",
    "css",
    "svg",
    "json",
    "txt",
    "webmanifest",
    "ico",
];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static");
    println!("cargo:rerun-if-changed={}", root.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let store = out.join("assets");
    std::fs::create_dir_all(&store).expect("assets dir");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files.sort();
    let mut code = String::from("pub static ASSETS: &[Asset] = &[\n");
    for (index, (path, full)) in files.iter().enumerate() {
        println!("cargo:rerun-if-changed={}", full.display());
        let mut bytes = std::fs::read(full).expect("read a client file");
        if path == "index.html" {
            bytes = with_module_preloads(&root, bytes);
        }
        let etag = hex(&Sha256::digest(&bytes)[..12]);
        let raw = store.join(format!("{index}.raw"));
        std::fs::write(&raw, &bytes).expect("write");
        let text = Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| TEXT.contains(&e));
        let (br, gz) = if text {
            (
                smaller(&store, index, "br", &bytes, brotli_of(&bytes)),
                smaller(&store, index, "gz", &bytes, gzip_of(&bytes)),
            )
        } else {
            (None, None)
        };
        let include = |p: &Path| format!("include_bytes!({:?})", p.display().to_string());
        let option =
            |p: Option<PathBuf>| p.map_or("None".to_owned(), |p| format!("Some({})", include(&p)));
        writeln!(
            code,
            "    Asset {{ path: {path:?}, etag: \"\\\"{etag}\\\"\", raw: {}, br: {}, gz: {} }},",
            include(&raw),
            option(br),
            option(gz),
        )
        .expect("write code");
    }
    code.push_str("];\n");
    std::fs::write(out.join("assets.rs"), code).expect("write assets.rs");
}

/// The page with a `modulepreload` link for every module `js/main.js` imports, however deep:
/// the browser fetches them all at once instead of one level of imports per round trip.
fn with_module_preloads(root: &Path, page: Vec<u8>) -> Vec<u8> {
    let page = String::from_utf8(page).expect("index.html is UTF-8");
    let entry = "<script type=\"module\" src=\"/js/main.js\"></script>";
    assert!(page.contains(entry), "index.html loads /js/main.js");
    let mut seen = vec!["js/main.js".to_owned()];
    let mut next = 0;
    while next < seen.len() {
        let module = seen[next].clone();
        next += 1;
        let text = std::fs::read_to_string(root.join(&module)).expect("read a module");
        for imported in imports_of(&text) {
            let resolved = resolve(&module, &imported);
            if !seen.contains(&resolved) {
                seen.push(resolved);
            }
        }
    }
    let links: String = seen[1..]
        .iter()
        .map(|m| format!("\n<link rel=\"modulepreload\" href=\"/{m}\">"))
        .collect();
    page.replacen(entry, &format!("{entry}{links}"), 1)
        .into_bytes()
}

/// The relative modules a module imports statically: `from './x.js'` and `import './x.js'`
/// (the types in JSDoc comments, `import('./x.js')`, are not imports).
fn imports_of(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("//") || line.starts_with('*') || line.starts_with("/*") {
            continue;
        }
        let spec = line
            .split_once(" from '")
            .or_else(|| line.strip_prefix("import '").map(|rest| ("", rest)))
            .and_then(|(_, rest)| rest.split_once('\''))
            .map(|(spec, _)| spec);
        if let Some(spec) = spec.filter(|s| s.starts_with('.')) {
            found.push(spec.to_owned());
        }
    }
    found
}

/// `spec` (`./x.js`, `../y.js`) as a path from the client's root, from `module`'s folder.
fn resolve(module: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = module.split('/').collect();
    parts.pop();
    for piece in spec.split('/') {
        match piece {
            "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    parts.join("/")
}

/// Every file below `dir`, by its path from `root` with `/` between parts.
fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read static")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, files);
        } else {
            let relative = path.strip_prefix(root).expect("below root");
            let name = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((name, path));
        }
    }
}

/// Keeps `packed` as the file's `kind` form only when it is smaller than the file itself.
fn smaller(
    store: &Path,
    index: usize,
    kind: &str,
    bytes: &[u8],
    packed: Vec<u8>,
) -> Option<PathBuf> {
    if packed.len() >= bytes.len() {
        return None;
    }
    let path = store.join(format!("{index}.{kind}"));
    std::fs::write(&path, packed).expect("write");
    Some(path)
}

fn brotli_of(bytes: &[u8]) -> Vec<u8> {
    let mut packed = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut packed, 4096, 11, 22);
        writer.write_all(bytes).expect("brotli");
    }
    packed
}

fn gzip_of(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
