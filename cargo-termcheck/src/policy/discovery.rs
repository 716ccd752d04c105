//! Finding termcheck.toml: `--config PATH`, else the nearest `termcheck.toml`,
//! `.termcheck.toml` or `.cargo/termcheck.toml` from the current directory up to the workspace
//! root, else the defaults.

use super::error::PolicyError;
use super::model::Policy;
use super::parse::parse_policy;
use std::path::{Path, PathBuf};

/// The file names looked for in each directory, in this order.
pub const POLICY_FILE_NAMES: [&str; 3] = ["termcheck.toml", ".termcheck.toml", ".cargo/termcheck.toml"];

/// Loads the policy: `explicit` (an error if it cannot be read), else the first directory from
/// `start` up to `workspace_root` that holds a policy file (two in one directory is an error),
/// else [`Policy::defaults`]. A `start` outside the workspace is searched, then the root.
pub fn find_policy(start: &Path, workspace_root: &Path, explicit: Option<&Path>) -> Result<Policy, PolicyError> {
    let path = match explicit {
        Some(path) => Some(path.to_path_buf()),
        None => locate_policy_file(start, workspace_root)?,
    };
    match path {
        None => Ok(Policy::defaults(workspace_root)),
        Some(path) => {
            let text = std::fs::read_to_string(&path).map_err(|source| PolicyError::Io { path: path.clone(), source })?;
            parse_policy(&text, &path, workspace_root)
        }
    }
}

/// The environment variable that names a policy file when `--config` is not given.
pub const CONFIG_ENV: &str = "TERMCHECK_CONFIG";

/// The explicit policy file: `--config PATH` if given, else a non-empty `TERMCHECK_CONFIG`
/// (read through `env`), else `None` (search as [`find_policy`] does).
pub fn explicit_policy_path(flag: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    flag.map(Path::to_path_buf).or_else(|| env(CONFIG_ENV).filter(|v| !v.is_empty()).map(PathBuf::from))
}

/// The policy file that applies to `start`, if any (see [`find_policy`]).
pub fn locate_policy_file(start: &Path, workspace_root: &Path) -> Result<Option<PathBuf>, PolicyError> {
    let mut dirs: Vec<&Path> = Vec::new();
    if start.starts_with(workspace_root) {
        dirs.extend(start.ancestors().take_while(|dir| dir.starts_with(workspace_root)));
    } else {
        dirs.push(start);
        dirs.push(workspace_root);
    }
    for dir in dirs {
        let found: Vec<PathBuf> = POLICY_FILE_NAMES.iter().map(|name| dir.join(name)).filter(|p| p.is_file()).collect();
        match found.len() {
            0 => continue,
            1 => return Ok(found.into_iter().next()),
            _ => {
                let names = found.iter().map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string()).collect();
                return Err(PolicyError::Ambiguous { dir: dir.to_path_buf(), found: names });
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::model::PolicySource;
    use std::fs;

    const MINIMAL: &str = "[checks]\ntimeout = \"deny\"\n";

    fn workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::create_dir_all(dir.path().join("crates/a/src")).expect("mkdir");
        dir
    }

    #[test]
    fn no_file_gives_the_defaults() {
        let ws = workspace();
        let policy = find_policy(&ws.path().join("crates/a/src"), ws.path(), None).expect("defaults");
        assert_eq!(policy.source, PolicySource::Defaults);
    }

    #[test]
    fn each_file_name_is_found_walking_up() {
        for name in POLICY_FILE_NAMES {
            let ws = workspace();
            let path = ws.path().join(name);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(&path, MINIMAL).expect("write");
            let policy = find_policy(&ws.path().join("crates/a/src"), ws.path(), None).expect("found");
            assert_eq!(policy.source, PolicySource::File(path), "{name}");
        }
    }

    #[test]
    fn the_nearest_file_wins_and_the_search_stops_at_the_root() {
        let ws = workspace();
        fs::write(ws.path().join("termcheck.toml"), MINIMAL).expect("write");
        fs::write(ws.path().join("crates/a/termcheck.toml"), MINIMAL).expect("write");
        let found = locate_policy_file(&ws.path().join("crates/a/src"), ws.path()).expect("ok");
        assert_eq!(found, Some(ws.path().join("crates/a/termcheck.toml")));
        // A file above the workspace root is not the workspace's policy.
        let inner = ws.path().join("crates");
        fs::remove_file(ws.path().join("crates/a/termcheck.toml")).expect("rm");
        assert_eq!(locate_policy_file(&inner.join("a/src"), &inner).expect("ok"), None);
    }

    #[test]
    fn two_files_in_one_directory_are_an_error() {
        let ws = workspace();
        fs::write(ws.path().join("termcheck.toml"), MINIMAL).expect("write");
        fs::write(ws.path().join(".termcheck.toml"), MINIMAL).expect("write");
        let err = find_policy(ws.path(), ws.path(), None).expect_err("ambiguous");
        assert_eq!(err.code_str(), "termcheck::config::ambiguous");
        assert!(err.to_string().contains("termcheck.toml, .termcheck.toml"), "{err}");
    }

    #[test]
    fn the_flag_beats_the_environment_variable() {
        let env = |name: &str| (name == CONFIG_ENV).then(|| "from-env.toml".to_string());
        assert_eq!(explicit_policy_path(Some(Path::new("flag.toml")), env), Some(PathBuf::from("flag.toml")));
        assert_eq!(explicit_policy_path(None, env), Some(PathBuf::from("from-env.toml")));
        assert_eq!(explicit_policy_path(None, |_| Some(String::new())), None, "an empty variable is unset");
        assert_eq!(explicit_policy_path(None, |_| None), None);
    }

    #[test]
    fn explicit_path_overrides_and_must_exist() {
        let ws = workspace();
        fs::write(ws.path().join("termcheck.toml"), "[checks]\nbogus = 1\n").expect("write");
        let other = ws.path().join("ci.toml");
        fs::write(&other, MINIMAL).expect("write");
        let policy = find_policy(ws.path(), ws.path(), Some(&other)).expect("explicit file is used, the broken one ignored");
        assert_eq!(policy.source, PolicySource::File(other));
        let err = find_policy(ws.path(), ws.path(), Some(&ws.path().join("missing.toml"))).expect_err("missing");
        assert_eq!(err.code_str(), "termcheck::config::read");
    }
}
