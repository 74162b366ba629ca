//! The check that the repository speaks only of itself: no tracked file may
//! mention work sessions, issue numbers, notes written when closing work, or rule and design
//! files kept outside the repository. History belongs in git, and a reader of
//! the repository must find everything it refers to inside it.

use std::path::Path;
use std::process::Command;

/// What must not appear, as a POSIX extended regular expression for `git grep -E`.
/// The space of the second alternative is written as a bracket so that this
/// line does not match itself.
pub const PATTERN: &str = r"RULES\.md|closing[ ]note|[Ss]ession [0-9]|[Ii]ssue [0-9]|\.\./shared";

/// Pathspecs left out of the search, in every folder: lock files are
/// generated, and their hashes and package names are not the project's words.
/// (A plain `:!package-lock.json` would leave out only the top-level file.)
pub const EXCLUDED: [&str; 2] = [
    ":(exclude,glob)**/*.lock",
    ":(exclude,glob)**/package-lock.json",
];

/// The lines of files tracked in the git work tree `repo` that match
/// [`PATTERN`], as `path:line:text`; an error when git cannot search.
pub fn hits(repo: &Path) -> Result<Vec<String>, String> {
    let out = Command::new("git")
        .current_dir(repo)
        .args(["grep", "--no-color", "-n", "-E", PATTERN, "--", "."])
        .args(EXCLUDED)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    match out.status.code() {
        // git grep: 0 = matches found, 1 = none.
        Some(0) => Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()),
        Some(1) => Ok(Vec::new()),
        _ => Err(format!(
            "git grep failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}

/// A report of the hits for the person running the tests, or `None` when
/// there are none.
pub fn report(hits: &[String]) -> Option<String> {
    if hits.is_empty() {
        return None;
    }
    let mut text = format!(
        "{} line(s) of tracked files mention work sessions, issue numbers, notes on \
         closing work or files outside the repository (pattern `{PATTERN}`); say what the code does instead \
         and leave the history to git:\n",
        hits.len()
    );
    for h in hits {
        text.push_str("  ");
        text.push_str(h);
        text.push('\n');
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    /// A fresh git repository in the temporary directory, removed on drop.
    struct Repo(PathBuf);

    impl Repo {
        fn new(name: &str) -> Repo {
            let dir = std::env::temp_dir().join(format!(
                "xtask-{name}-{}-{}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0)
            ));
            fs::create_dir_all(&dir).unwrap();
            git(&dir, &["init", "-q"]);
            Repo(dir)
        }

        fn write(&self, path: &str, text: &str) {
            let file = self.0.join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(file, text).unwrap();
        }

        fn track(&self, path: &str, text: &str) {
            self.write(path, text);
            git(&self.0, &["add", path]);
        }
    }

    impl Drop for Repo {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .current_dir(dir)
            .args(args)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "git {args:?} failed");
    }

    /// Joins the parts, so that the forbidden phrases are not written out in
    /// this file (which the check itself searches).
    fn phrase(parts: &[&str]) -> String {
        parts.concat()
    }

    #[test]
    fn every_alternative_is_found_in_tracked_files_only() {
        let repo = Repo::new("self-reference");
        let bad = [
            phrase(&["see ", "RULES", ".md §5"]),
            phrase(&["as decided in ", "Session", " 12"]),
            phrase(&["since ", "session", " 3"]),
            phrase(&["fixes ", "Issue", " 27"]),
            phrase(&["from ", "issue", " 2"]),
            phrase(&["say so in your ", "closing", " note"]),
            phrase(&["read ", "..", "/shared/DESIGN.md"]),
        ];
        for (k, line) in bad.iter().enumerate() {
            repo.track(&format!("src/bad{k}.rs"), &format!("// fine\n// {line}\n"));
        }
        // Words that look alike but are not the project's history.
        repo.track(
            "src/good.rs",
            "// a login session cookie; sessions expire\n// the rules in docs/rules.md §5\n\
             // issues are tracked elsewhere; ./shared/x is a local folder\n",
        );
        // Lock files, untracked files and ignored paths are not searched.
        repo.track("Cargo.lock", &format!("# {}\n", bad[0]));
        repo.track("fuzz/Cargo.lock", &format!("# {}\n", bad[2]));
        repo.track("package-lock.json", &format!("\"{}\"\n", bad[4]));
        repo.track("web/package-lock.json", &format!("\"{}\"\n", bad[3]));
        repo.write("notes.txt", &format!("{}\n", bad[1]));

        let mut found = hits(&repo.0).unwrap();
        found.sort();
        let expected: Vec<String> = bad
            .iter()
            .enumerate()
            .map(|(k, line)| format!("src/bad{k}.rs:2:// {line}"))
            .collect();
        assert_eq!(found, expected);
        let text = report(&found).unwrap();
        assert!(text.starts_with("7 line(s)"), "{text}");
        assert!(text.contains("src/bad4.rs:2:"), "{text}");
    }

    #[test]
    fn a_clean_repository_passes() {
        let repo = Repo::new("self-reference-clean");
        repo.track("README.md", "# A project\n\nIt speaks of itself only.\n");
        assert_eq!(hits(&repo.0).unwrap(), Vec::<String>::new());
        assert_eq!(report(&[]), None);
    }

    #[test]
    fn this_file_does_not_match_its_own_pattern() {
        let text = include_str!("self_reference.rs");
        let repo = Repo::new("self-reference-own");
        repo.track("self_reference.rs", text);
        assert_eq!(hits(&repo.0).unwrap(), Vec::<String>::new());
    }
}
