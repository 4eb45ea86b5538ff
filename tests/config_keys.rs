//! Every key of every experiment file is checked at load (issue 39): one bad value per key,
//! generated from the parsed built-in files, and the load that `reproduce --check` runs
//! refuses it, naming the file, the key and what it accepts.
//!
//! The bad values: a string no closed set holds, in place of every value (a number, a
//! boolean or a string: the closed sets are serde enums or names checked against their
//! list), the first element standing for an array's; and every key renamed (unknown fields are refused, a map's keys are checked
//! against their set). The numbers' ranges are `tests/hardening.rs`'s.

use gpgpu_repro::gl::{self, DeviceSelector};
use gpgpu_repro::registry::PAPERS;
use gpgpu_repro::runner::{self, Check, Mode, RunError};

const BAD: &str = "no-such-value";
const BAD_KEY: &str = "no_such_key";

/// One mutation of a file: the key it touches and the file's new text.
struct Mutation {
    key: String,
    /// The last named segment of the key, which the error's text must show.
    name: String,
    text: toml::Value,
}

fn key_of(path: &[String]) -> String {
    path.join(".").replace(".[", "[")
}

fn last_name(path: &[String]) -> String {
    path.iter()
        .rev()
        .find(|s| !s.starts_with('['))
        .cloned()
        .unwrap_or_default()
}

/// Every leaf mutated to a value of the wrong kind, every table key renamed.
fn mutations(root: &toml::Value) -> Vec<Mutation> {
    fn walk(v: &toml::Value, path: &mut Vec<String>, root: &toml::Value, out: &mut Vec<Mutation>) {
        match v {
            toml::Value::Table(t) => {
                for (k, child) in t {
                    path.push(k.clone());
                    let mut renamed = root.clone();
                    let parent = at_mut(&mut renamed, &path[..path.len() - 1]);
                    let table = parent.as_table_mut().unwrap();
                    let moved = table.remove(k).unwrap();
                    table.insert(BAD_KEY.into(), moved);
                    out.push(Mutation {
                        key: format!("{} (renamed)", key_of(path)),
                        name: BAD_KEY.into(),
                        text: renamed,
                    });
                    walk(child, path, root, out);
                    path.pop();
                }
            }
            toml::Value::Array(a) => {
                // The first element stands for all (they share one type).
                if let Some(first) = a.first() {
                    path.push("[0]".into());
                    walk(first, path, root, out);
                    path.pop();
                }
            }
            _ => {
                // A string outside every closed set, or where a number or boolean belongs.
                let mut text = root.clone();
                *at_mut(&mut text, path) = toml::Value::String(BAD.into());
                out.push(Mutation {
                    key: key_of(path),
                    name: last_name(path),
                    text,
                });
            }
        }
    }
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), root, &mut out);
    out
}

fn at_mut<'a>(v: &'a mut toml::Value, path: &[String]) -> &'a mut toml::Value {
    path.iter().fold(v, |v, k| match k.strip_prefix('[') {
        Some(i) => {
            &mut v.as_array_mut().unwrap()[i.trim_end_matches(']').parse::<usize>().unwrap()]
        }
        None => v.as_table_mut().unwrap().get_mut(k).unwrap(),
    })
}

/// Words by which an error says what the key accepts.
fn says_what_is_allowed(message: &str) -> bool {
    ["expected", "must", "are:", "one of", "unknown field"]
        .iter()
        .any(|w| message.contains(w))
}

/// Keys whose value is free text (any string is a good value): the reason a sweep's size was
/// chosen, printed in the tuning table's caption.
const FREE_TEXT: &[&str] = &["why_n"];

#[test]
fn every_key_of_every_experiment_file_refuses_a_bad_value_at_load() {
    let g = gl::headless(&DeviceSelector::Auto).expect("a headless GL context");
    let dir = tempfile::tempdir().unwrap();
    for p in PAPERS {
        for f in p.files {
            std::fs::write(dir.path().join(format!("{}.toml", f.name)), f.builtin).unwrap();
        }
    }
    let check = Check {
        mode: Mode::Quick,
        device: g.info(),
    };
    let (mut tried, mut wrong) = (0, Vec::new());
    for paper in PAPERS {
        for file in paper.files {
            let original: toml::Value = toml::from_str(file.builtin).unwrap();
            let path = dir.path().join(format!("{}.toml", file.name));
            for m in mutations(&original) {
                if FREE_TEXT.iter().any(|k| m.key.ends_with(&format!(".{k}"))) {
                    continue;
                }
                std::fs::write(&path, toml::to_string(&m.text).unwrap()).unwrap();
                tried += 1;
                let said = match runner::entry::load(paper.files, Some(dir.path()), &check) {
                    Err(RunError::Config { file: f, message }) => {
                        let named = f.contains(&format!("{}.toml", file.name))
                            && message.contains(&m.name)
                            && says_what_is_allowed(&message);
                        (!named).then(|| format!("{f}: {message}"))
                    }
                    Err(e) => Some(format!("not a config error: {e}")),
                    Ok(_) => Some("accepted".into()),
                };
                if let Some(said) = said {
                    wrong.push(format!("{}: {}: {said}", file.name, m.key));
                }
            }
            std::fs::write(&path, file.builtin).unwrap();
        }
    }
    assert!(tried > 300, "{tried} mutations");
    assert!(
        wrong.is_empty(),
        "{} of {tried} bad values not refused with file, key and allowed values:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
