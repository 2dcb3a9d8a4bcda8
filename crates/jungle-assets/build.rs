//! Embeds the client (`static/`): every file, its strong ETag (a SHA-256 of its bytes), and
//! for text its brotli and gzip forms when they are smaller, all made here once so that a
//! request costs no compression. Writes `assets.rs` into OUT_DIR, included by the crate.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;
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

/// Folders whose files get an address named by their content (`js/main.1a2b3c4d5e.js`),
/// cached for a year: a new version is a new address. The page, the service worker, the
/// manifests and the icons keep their names (the browser asks for those by name).
const HASHED: &[&str] = &["js/", "css/", "fonts/"];

/// One file of the client as it will be embedded.
struct File {
    path: String,
    full: PathBuf,
    bytes: Vec<u8>,
    /// Its content-named address, for the folders in [`HASHED`].
    hashed: Option<String>,
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static");
    println!("cargo:rerun-if-changed={}", root.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let store = out.join("assets");
    std::fs::create_dir_all(&store).expect("assets dir");
    let mut paths = Vec::new();
    walk(&root, &root, &mut paths);
    paths.sort();
    let mut files: Vec<File> = paths
        .into_iter()
        .map(|(path, full)| {
            let bytes = std::fs::read(&full).expect("read a client file");
            File {
                path,
                full,
                bytes,
                hashed: None,
            }
        })
        .collect();
    // Fonts and modules first, then the styles that name fonts (rewritten to their new
    // addresses, so a style's own name changes with theirs).
    for pass in [false, true] {
        let renames = renames(&files);
        for file in files.iter_mut() {
            let is_css = file.path.ends_with(".css");
            if is_css != pass || !HASHED.iter().any(|dir| file.path.starts_with(dir)) {
                continue;
            }
            if is_css {
                file.bytes = rename_references(&file.bytes, &renames);
            }
            file.hashed = Some(hashed_name(&file.path, &file.bytes));
        }
    }
    let renames = renames(&files);
    let version = client_version(&files);
    let mut import_map_sha256 = String::new();
    let mut language_pages = Vec::new();
    for file in files.iter_mut() {
        if file.path == "index.html" {
            let (page, digest) = page_of(&root, &file.bytes, &renames, &version);
            import_map_sha256 = digest;
            // A reader of Chinese (by the browser's language) gets the page preloading its
            // words too: they arrive with the first screen's modules, not after them.
            for (language, table, html_lang) in [
                ("zh", "js/strings_zh.js", "zh-CN"),
                ("zh-Hant", "js/strings_zh_hant.js", "zh-Hant"),
            ] {
                let table = &renames
                    .iter()
                    .find(|(old, _)| old == &format!("/{table}"))
                    .expect("the Chinese tables are content-named")
                    .1;
                let text = String::from_utf8(page.clone()).expect("UTF-8");
                let marker = "<link rel=\"modulepreload\"";
                let with_table = text.replacen(
                    marker,
                    &format!("<link rel=\"modulepreload\" href=\"{table}\">\n{marker}"),
                    1,
                );
                // Its language and its installed app's name, before any script has run.
                let with_table = with_table
                    .replacen(
                        "<html lang=\"en\">",
                        &format!("<html lang=\"{html_lang}\">"),
                        1,
                    )
                    .replacen(
                        "href=\"/manifest.webmanifest\"",
                        &format!("href=\"/manifest.{language}.webmanifest\""),
                        1,
                    );
                language_pages.push(File {
                    path: format!("index.{language}.html"),
                    full: file.full.clone(),
                    bytes: with_table.into_bytes(),
                    hashed: None,
                });
            }
            file.bytes = page;
        } else if file.path == "sw.js" {
            let text = String::from_utf8(file.bytes.clone()).expect("sw.js is UTF-8");
            assert!(
                text.contains("const VERSION = 'dev';"),
                "sw.js names its version"
            );
            file.bytes = text
                .replacen(
                    "const VERSION = 'dev';",
                    &format!("const VERSION = '{version}';"),
                    1,
                )
                .into_bytes();
        }
    }
    files.extend(language_pages);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut code = String::from("pub static ASSETS: &[Asset] = &[\n");
    for (index, file) in files.iter().enumerate() {
        println!("cargo:rerun-if-changed={}", file.full.display());
        let bytes = &file.bytes;
        let etag = hex(&Sha256::digest(bytes)[..12]);
        let raw = store.join(format!("{index}.raw"));
        std::fs::write(&raw, bytes).expect("write");
        let text = Path::new(&file.path)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| TEXT.contains(&e));
        let (br, gz) = if text {
            (
                smaller(&store, index, "br", bytes, brotli_of(bytes)),
                smaller(&store, index, "gz", bytes, gzip_of(bytes)),
            )
        } else {
            (None, None)
        };
        let include = |p: &Path| format!("include_bytes!({:?})", p.display().to_string());
        let option =
            |p: Option<PathBuf>| p.map_or("None".to_owned(), |p| format!("Some({})", include(&p)));
        writeln!(
            code,
            "    Asset {{ path: {:?}, hashed: {:?}, etag: \"\\\"{etag}\\\"\", raw: {}, br: {}, gz: {} }},",
            file.path,
            file.hashed,
            include(&raw),
            option(br),
            option(gz),
        )
        .expect("write code");
    }
    code.push_str("];\n");
    let mut by_hashed: Vec<(&str, usize)> = files
        .iter()
        .enumerate()
        .filter_map(|(index, f)| f.hashed.as_deref().map(|h| (h, index)))
        .collect();
    by_hashed.sort();
    code.push_str("pub static BY_HASHED: &[(&str, usize)] = &[\n");
    for (hashed, index) in by_hashed {
        writeln!(code, "    ({hashed:?}, {index}),").expect("write code");
    }
    code.push_str("];\n");
    writeln!(code, "pub const CLIENT_VERSION: &str = {version:?};").expect("write code");
    writeln!(
        code,
        "pub const IMPORT_MAP_SHA256: &str = {import_map_sha256:?};"
    )
    .expect("write code");
    std::fs::write(out.join("assets.rs"), code).expect("write assets.rs");
}

/// Each content-named file's address, old to new: `/js/main.js` to `/js/main.1a2b….js`.
fn renames(files: &[File]) -> Vec<(String, String)> {
    files
        .iter()
        .filter_map(|f| {
            f.hashed
                .as_ref()
                .map(|h| (format!("/{}", f.path), format!("/{h}")))
        })
        .collect()
}

/// `js/main.js` named by its content: `js/main.1a2b3c4d5e.js`.
fn hashed_name(path: &str, bytes: &[u8]) -> String {
    let digest = hex(&Sha256::digest(bytes)[..5]);
    match path.rsplit_once('.') {
        Some((stem, extension)) if !stem.ends_with('/') => format!("{stem}.{digest}.{extension}"),
        _ => format!("{path}.{digest}"),
    }
}

/// `bytes` (text) with every quoted address of a renamed file (`"/fonts/x.woff2"`) replaced.
fn rename_references(bytes: &[u8], renames: &[(String, String)]) -> Vec<u8> {
    let mut text = String::from_utf8(bytes.to_vec()).expect("text is UTF-8");
    for (old, new) in renames {
        for quote in ['"', '\''] {
            text = text.replace(
                &format!("{quote}{old}{quote}"),
                &format!("{quote}{new}{quote}"),
            );
        }
    }
    text.into_bytes()
}

/// This build of the client, named by its files: a page that learns the server now serves
/// another one reloads (between games).
fn client_version(files: &[File]) -> String {
    let mut all = Sha256::new();
    for file in files
        .iter()
        .filter(|f| f.path != "index.html" && f.path != "sw.js")
    {
        all.update(file.path.as_bytes());
        all.update(Sha256::digest(&file.bytes));
    }
    hex(&all.finalize()[..6])
}

/// The page as served: files at their content-named addresses; an import map that sends
/// each module's plain address (`/js/board.js`, as modules import each other) to its
/// content-named one; a `modulepreload` link for every module `js/main.js` imports, however
/// deep, so the browser asks for them all at once instead of one level per round trip; and
/// the client's version. Returns the page and the import map's SHA-256 for the
/// Content-Security-Policy (an inline script runs only when the policy names its hash).
fn page_of(
    root: &Path,
    page: &[u8],
    renames: &[(String, String)],
    version: &str,
) -> (Vec<u8>, String) {
    let page = String::from_utf8(page.to_vec()).expect("index.html is UTF-8");
    let entry = "<script type=\"module\" src=\"/js/main.js\"></script>";
    assert!(page.contains(entry), "index.html loads /js/main.js");
    let renamed = |plain: &str| {
        renames
            .iter()
            .find(|(old, _)| old == plain)
            .map_or(plain.to_owned(), |(_, new)| new.clone())
    };
    let modules: String = renames
        .iter()
        .filter(|(old, _)| old.starts_with("/js/") && old.ends_with(".js"))
        .map(|(old, new)| format!("{old:?}:{new:?}"))
        .collect::<Vec<_>>()
        .join(",");
    let import_map = format!("{{\"imports\":{{{modules}}}}}");
    let digest = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(&import_map));
    let preloads: String = module_graph(root)[1..]
        .iter()
        .map(|m| {
            format!(
                "\n<link rel=\"modulepreload\" href=\"{}\">",
                renamed(&format!("/{m}"))
            )
        })
        .collect();
    let head = format!(
        "<meta name=\"jungle-client\" content=\"{version}\">\n<script type=\"importmap\">{import_map}</script>\n\
         <script type=\"module\" src=\"{}\"></script>{preloads}",
        renamed("/js/main.js")
    );
    // The import map's keys are the plain addresses: the rest of the page is renamed first.
    let marker = "<!-- the client's modules -->";
    let page = page.replacen(entry, marker, 1);
    let page = String::from_utf8(rename_references(page.as_bytes(), renames)).expect("UTF-8");
    (page.replacen(marker, &head, 1).into_bytes(), digest)
}

/// `js/main.js` and every module it imports statically, however deep, in the order found.
fn module_graph(root: &Path) -> Vec<String> {
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
    seen
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
