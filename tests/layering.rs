//! The library's layers (issue 9): dependencies point down only,
//!
//! ```text
//! bin → engine (and api) → convert (and charset) → host / grammar → simd / config / error
//! ```
//!
//! Every `crate::…` path in the code of `src/**.rs` (and every `iribulk::…` path of the command
//! in `src/bin/`) is an edge from the top module of its file to the top module it names; `use
//! crate::{a, b::c}` groups count each member. Comments, doc comments (intra-doc links are not
//! dependencies), string and character literals are left out. The test fails when a module
//! uses a module of a higher layer (other than the few [`ALLOWED`] exceptions, each with its
//! reason), when the graph of top modules less those exceptions has a cycle (modules of one
//! layer may use each other one way only), when a `super::` path climbs out of its top module, or when an exception is
//! no longer needed. `cargo test --test layering -- --nocapture` prints the module graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, top first; a module may use modules of its own layer or below.
const LAYERS: &[(&str, &[&str])] = &[
    ("command", &["bin"]),
    // `lib` is the crate root: its `pub use` re-exports; `api` holds the `&str` helpers, a
    // façade over the converters at the engine's height.
    ("root", &["lib"]),
    ("engine", &["engine", "api"]),
    ("convert", &["convert", "charset"]),
    ("host, grammar", &["host", "grammar"]),
    ("bottom", &["simd", "config", "error"]),
];

/// Edges that go up a layer, each with its reason: (from, to, reason).
const ALLOWED: &[(&str, &str, &str)] = &[(
    "simd",
    "grammar",
    "simd/pct.rs's scalar tail reads grammar::classes::PLAIN_TABLE, the const table of \
     RFC 3986 character classes that its SIMD blocks also encode; data, not code, and the \
     kernel must classify exactly as the grammar does",
)];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

/// The top module of a file under `src/`: `convert/to_iri.rs` → `convert`, `api.rs` → `api`,
/// `lib.rs` → `lib`, anything under `bin/` → `bin`; and its depth (the number of module
/// levels below the crate root, for `super::`).
fn top_module(rel: &Path) -> (String, usize) {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let first = parts[0].trim_end_matches(".rs").to_string();
    let last = parts.last().expect("a file");
    let depth = if last == "mod.rs" {
        parts.len() - 1
    } else {
        parts.len()
    };
    (first, depth)
}

/// `src` with comments, string literals and character literals replaced by spaces (line
/// breaks kept, so line numbers stay right). Raw strings (`r"…"`, `r#"…"#`, `br"…"`) and
/// nested block comments are handled; a `'` starts a character literal only when it is one
/// (`'a'`, `'\n'`, `'\u{20}'`), not a lifetime.
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|&p| p.is_alphanumeric() || p == '_')
            && {
                let mut k = if c == 'b' { i + 2 } else { i + 1 };
                while b.get(k) == Some(&'#') {
                    k += 1;
                }
                b.get(k) == Some(&'"')
            }
        {
            // A raw string: r, then n hashes, a quote, and the text up to a quote and n hashes.
            let mut k = if c == 'b' { i + 2 } else { i + 1 };
            let mut hashes = 0;
            while b[k] == '#' {
                hashes += 1;
                k += 1;
            }
            k += 1; // the opening quote
            while k < b.len() {
                if b[k] == '"' && (0..hashes).all(|h| b.get(k + 1 + h) == Some(&'#')) {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            for &x in &b[i..k.min(b.len())] {
                out.push(blank(x));
            }
            i = k;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // 'x' or '\…' is a character literal; anything else ('a in a lifetime) is not.
            let end = if next == Some('\\') {
                (i + 3..b.len()).find(|&k| b[k] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for &x in &b[i..=e] {
                        out.push(blank(x));
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The leading identifier of `s` (after white space).
fn ident(s: &str) -> &str {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    &s[..end]
}

/// The top modules named by the paths that start with `prefix` (`crate::`, `iribulk::`) in
/// `code`, with their line numbers. `prefix::{a, b::c}` names `a` and `b`.
fn paths_after(code: &str, prefix: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(p) = code[from..].find(prefix) {
        let at = from + p;
        from = at + prefix.len();
        // `crate::` must start a path: not `foo_crate::`, not `a::crate::`.
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let line = code[..at].matches('\n').count() + 1;
        let rest = code[from..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // Members of the group at depth 0, split at commas.
            let mut depth = 0;
            let mut member_start = true;
            for (k, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => member_start = true,
                    c if member_start && !c.is_whitespace() => {
                        member_start = false;
                        let name = ident(&group[k..]);
                        if !name.is_empty() && name != "self" {
                            found.push((name.to_string(), line));
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                found.push((name.to_string(), line));
            }
        }
    }
    found
}

/// One use of a module by another: (from, to, where).
#[derive(Clone, Debug)]
struct Edge {
    from: String,
    to: String,
    at: String,
}

/// The edges of one file: `rel` is its path under `src/`, `src` its text.
fn edges_of(rel: &Path, src: &str) -> Result<Vec<Edge>, String> {
    let (from, depth) = top_module(rel);
    let code = code_only(src);
    let mut edges = Vec::new();
    let mut push = |to: String, line: usize| {
        edges.push(Edge {
            from: from.clone(),
            to,
            at: format!("src/{}:{line}", rel.display()),
        });
    };
    if from == "bin" {
        // The command's own modules are `crate::cli`, …; the library is `iribulk::`.
        for (to, line) in paths_after(&code, "iribulk::") {
            if layer_of(&to).is_some() {
                push(to, line);
            } else {
                // A root re-export (`iribulk::ToUri`): the crate root.
                push("lib".to_string(), line);
            }
        }
        return Ok(edges);
    }
    for (to, line) in paths_after(&code, "crate::") {
        if layer_of(&to).is_some() {
            push(to, line);
        } else if to.chars().next().is_some_and(char::is_uppercase) || to == "api" {
            // `crate::ToUri`: a root re-export, which hides the real module: name it instead.
            return Err(format!(
                "src/{}:{line}: `crate::{to}` goes through the crate root; name the module \
                 that defines it",
                rel.display()
            ));
        } else {
            return Err(format!(
                "src/{}:{line}: `crate::{to}` is no module of LAYERS: add it there",
                rel.display()
            ));
        }
    }
    if from == "lib" {
        // The root's `pub use x::…` and `mod x;` lines name its modules without `crate::`.
        for (k, l) in code.lines().enumerate() {
            let l = l.trim_start();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            if let Some(rest) = l.strip_prefix("use ") {
                let to = ident(rest);
                if layer_of(to).is_some() {
                    push(to.to_string(), k + 1);
                }
            }
        }
    }
    // `super::super::…` climbing to the crate root would hide an edge. Inline modules
    // (`mod tests { … }`) add a level for the paths inside them.
    let bytes = code.as_bytes();
    let (mut braces, mut inline): (usize, Vec<usize>) = (0, Vec::new());
    let mut i = 0;
    while i < bytes.len() {
        let starts_path = i == 0 || !(is_ident(bytes[i - 1] as char) || bytes[i - 1] == b':');
        match bytes[i] {
            b'{' => braces += 1,
            b'}' => {
                braces = braces.saturating_sub(1);
                if inline.last() == Some(&braces) {
                    inline.pop();
                }
            }
            b'm' if starts_path && code[i..].starts_with("mod ") => {
                let rest = &code[i + 4..];
                let name = ident(rest);
                if !name.is_empty()
                    && rest.trim_start()[name.len()..]
                        .trim_start()
                        .starts_with('{')
                {
                    inline.push(braces);
                }
            }
            b's' if starts_path && code[i..].starts_with("super::") => {
                let mut n = 0;
                while code[i..].starts_with("super::") {
                    n += 1;
                    i += 7;
                }
                if n >= depth + inline.len() {
                    let line = code[..i].matches('\n').count() + 1;
                    return Err(format!(
                        "src/{}:{line}: {n} × `super::` leaves the top module `{from}`: use \
                         `crate::`",
                        rel.display()
                    ));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(edges)
}

/// The edges that break the layer order and are not in [`ALLOWED`], the exceptions that no
/// edge needs, and a cycle of top modules if there is one.
fn check(edges: &[Edge]) -> (Vec<String>, Vec<String>, Option<Vec<String>>) {
    let mut bad = Vec::new();
    let mut used = BTreeSet::new();
    for e in edges {
        let (f, t) = (layer_of(&e.from).unwrap(), layer_of(&e.to).unwrap());
        if t < f {
            match ALLOWED.iter().find(|a| a.0 == e.from && a.1 == e.to) {
                Some(a) => {
                    used.insert((a.0, a.1));
                }
                None => bad.push(format!(
                    "{}: `{}` ({}) uses `{}` ({}), a higher layer",
                    e.at, e.from, LAYERS[f].0, e.to, LAYERS[t].0
                )),
            }
        }
    }
    let stale = ALLOWED
        .iter()
        .filter(|a| !used.contains(&(a.0, a.1)))
        .map(|a| format!("ALLOWED ({} → {}) is no longer needed", a.0, a.1))
        .collect();
    // An allowed upward edge is a named exception to the order, so it does not count as a
    // cycle either; every other pair of modules depends one way only.
    let ordered: Vec<Edge> = edges
        .iter()
        .filter(|e| !ALLOWED.iter().any(|a| a.0 == e.from && a.1 == e.to))
        .cloned()
        .collect();
    (bad, stale, find_cycle(&graph(&ordered)))
}

fn graph(edges: &[Edge]) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in edges {
        g.entry(e.to.clone()).or_default();
        let out = g.entry(e.from.clone()).or_default();
        if e.from != e.to {
            out.insert(e.to.clone());
        }
    }
    g
}

/// A cycle of the graph (depth-first search), as the list of its modules.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in &g[n] {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let i = stack.iter().position(|s| s == m).unwrap();
                    let mut c = stack[i..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in g.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, g, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn crate_edges() -> Vec<Edge> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 40, "{} files under src/", files.len());
    let mut edges = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).expect("under src");
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        match edges_of(rel, &text) {
            Ok(e) => edges.extend(e),
            Err(e) => errors.push(e),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    edges
}

#[test]
fn dependencies_point_down_only() {
    let edges = crate_edges();
    let g = graph(&edges);
    println!("module graph (top module → the modules it uses), layer by layer:");
    for (name, modules) in LAYERS {
        for m in *modules {
            let uses: Vec<&str> = g
                .get(*m)
                .map(|s| s.iter().map(String::as_str).collect())
                .unwrap_or_default();
            println!("  [{name}] {m} → {}", uses.join(", "));
        }
    }
    for a in ALLOWED {
        println!("  allowed upward: {} → {}: {}", a.0, a.1, a.2);
    }
    // Every module of LAYERS exists (a renamed module must be renamed here too).
    for (_, modules) in LAYERS {
        for m in *modules {
            assert!(
                g.contains_key(*m),
                "module `{m}` of LAYERS has no file or edge"
            );
        }
    }
    let (bad, stale, cycle) = check(&edges);
    assert!(bad.is_empty(), "upward dependencies:\n{}", bad.join("\n"));
    assert!(stale.is_empty(), "{}", stale.join("\n"));
    assert_eq!(cycle, None, "a cycle of top modules");
}

/// The checker itself: an upward `use` in convert/ is found (plain, in a group, nested in a
/// path, through `$crate`), paths in comments and strings are not, and a cycle is found.
#[test]
fn the_checker_finds_what_it_must() {
    let convert = Path::new("convert/new.rs");
    let upward = [
        "use crate::engine;",
        "use crate::engine::worker::Worker;",
        "use crate::{grammar::components, engine::Stats};",
        "use crate::{\n    host,\n    engine::{self, Stats},\n};",
        "fn f() { let _ = crate::engine::lines::FLAGGED; }",
        "macro_rules! m { () => { $crate::engine::x() } }",
        "fn f() -> &'static str { let c = '\"'; crate::engine::x() }",
    ];
    for src in upward {
        let edges = edges_of(convert, src).expect("parses");
        let (bad, _, _) = check(&edges);
        assert_eq!(bad.len(), 1, "{src:?}: {edges:?}");
        assert!(bad[0].contains("`convert` (convert) uses `engine` (engine)"));
        assert!(bad[0].starts_with("src/convert/new.rs:"), "{}", bad[0]);
    }
    let harmless = [
        "// use crate::engine;",
        "/// See [`crate::engine::Worker`].",
        "/* crate::engine /* nested */ crate::engine */",
        "const S: &str = \"use crate::engine;\";",
        "const R: &str = r#\"crate::engine \"quoted\" \"#;",
        "use crate::host::Idna; use crate::grammar::classes; use crate::error::ErrorKind;",
        "fn f<'a>(x: &'a str) -> &'a str { x } use my_crate::engine;",
    ];
    for src in harmless {
        let edges = edges_of(convert, src).expect("parses");
        let (bad, _, _) = check(&edges);
        assert!(bad.is_empty(), "{src:?}: {bad:?}");
    }
    // A root re-export hides the module; an unknown module must be placed in LAYERS.
    assert!(edges_of(convert, "use crate::ToUri;").is_err());
    assert!(edges_of(convert, "use crate::newthing::X;").is_err());
    // Climbing out of the top module with super:: is refused.
    assert!(edges_of(convert, "use super::super::engine;").is_err());
    assert!(edges_of(convert, "mod tests { use super::super::super::engine; }").is_err());
    assert!(edges_of(convert, "mod tests { use super::super::to_uri; }").is_ok());
    assert!(edges_of(convert, "mod tests { use super::*; }").is_ok());
    assert!(edges_of(convert, "mod a { } use super::super::engine;").is_err());
    assert!(edges_of(
        Path::new("convert/normalize/rungs.rs"),
        "use super::super::to_uri;"
    )
    .is_ok());
    // A cycle between modules of one layer.
    let mut edges = edges_of(Path::new("host/x.rs"), "use crate::grammar::y;").unwrap();
    edges.extend(edges_of(Path::new("grammar/y.rs"), "use crate::host::x;").unwrap());
    let (bad, _, cycle) = check(&edges);
    assert!(bad.is_empty());
    let cycle = cycle.expect("host → grammar → host");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 3, "{cycle:?}");
}
