//! The root's rules, each on a scratch folder.

use super::*;

struct Dir(PathBuf);
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Dir {
    let d = std::env::temp_dir().join(format!("bpvm-root-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("in/sub")).unwrap();
    std::fs::write(d.join("outside.txt"), "secret").unwrap();
    std::fs::write(d.join("in/a.txt"), "a").unwrap();
    Dir(d)
}

#[test]
fn relative_paths_resolve_inside() {
    let d = scratch("inside");
    let root = Root::new(&d.0.join("in"), "project").unwrap();
    let sub = root.dir().join("sub");
    assert_eq!(root.read_string(&sub, "../a.txt").unwrap(), "a");
    assert!(root.read_string(&sub, "../missing.txt").unwrap_err().is_missing());
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_root_are_refused() {
    let d = scratch("symlink");
    std::os::unix::fs::symlink(d.0.join("outside.txt"), d.0.join("in/link.txt")).unwrap();
    let root = Root::new(&d.0.join("in"), "project").unwrap();
    let e = root.read_string(root.dir(), "link.txt").unwrap_err();
    assert!(matches!(e.refusal, Refusal::Outside(_)), "{e}");
    assert!(e.to_string().starts_with("\"link.txt\" is outside the project "), "{e}");
    assert!(
        e.to_string()
            .ends_with("(files are read only inside it; symlinks are followed while they stay inside)"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn fifos_and_folders_are_not_read() {
    let d = scratch("fifo");
    let fifo = d.0.join("in/pipe");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let root = Root::new(&d.0.join("in"), "project").unwrap();
    let e = root.read(root.dir(), "pipe").unwrap_err();
    assert_eq!(e.to_string(), "\"pipe\" is a FIFO; only regular files are read");
    let e = root.read(root.dir(), "sub").unwrap_err();
    assert_eq!(e.to_string(), "\"sub\" is a folder; only regular files are read");
}

#[test]
fn large_files_are_refused() {
    let d = scratch("large");
    let f = File::create(d.0.join("in/big")).unwrap();
    f.set_len(MAX_FILE_BYTES + 1).unwrap();
    let root = Root::new(&d.0.join("in"), "project").unwrap();
    let e = root.read(root.dir(), "big").unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"big\" is 67108865 bytes, over the limit of 67108864 bytes (64 MiB) for one file"
    );
}

use std::os::unix::fs::symlink;

/// Reads `path` by the walk alone, as on a kernel without `openat2`.
fn walked(root: &Root, path: &str) -> Result<Vec<u8>, Failure> {
    let rel = normalize(&root.dir().join(path));
    let rel = rel.strip_prefix(root.dir()).unwrap();
    let opened = beneath::walk_only(root.handle.as_fd(), root.dir(), rel, Want::Read)?;
    Ok(read_regular(opened.fd, &opened.stat).unwrap())
}

#[test]
fn symlinks_that_stay_inside_are_followed_absolute_or_relative() {
    let d = scratch("inside-links");
    let inside = d.0.join("in").canonicalize().unwrap();
    symlink(inside.join("a.txt"), inside.join("sub/abs.txt")).unwrap();
    symlink("../a.txt", inside.join("sub/rel.txt")).unwrap();
    symlink(inside.join("sub"), inside.join("subdir")).unwrap();
    let root = Root::new(&inside, "project").unwrap();
    for path in ["sub/abs.txt", "sub/rel.txt", "subdir/rel.txt", "subdir/abs.txt"] {
        assert_eq!(root.read_string(root.dir(), path).unwrap(), "a", "{path}");
        assert_eq!(walked(&root, path).unwrap(), b"a", "{path}");
        assert_eq!(root.resolve(root.dir(), path).unwrap(), inside.join("a.txt"), "{path}");
    }
    assert_eq!(root.resolve(root.dir(), "subdir").unwrap(), inside.join("sub"));
}

#[test]
fn a_link_out_says_the_same_whether_its_target_exists_or_not() {
    let d = scratch("oracle");
    let inside = d.0.join("in");
    symlink(d.0.join("outside.txt"), inside.join("there")).unwrap();
    symlink(d.0.join("nothing.txt"), inside.join("nowhere")).unwrap();
    symlink("../../outside.txt", inside.join("sub/up")).unwrap();
    symlink("/proc/self/cwd", inside.join("cwd")).unwrap();
    let root = Root::new(&inside, "project").unwrap();
    let shown = |p: &str| root.read_string(root.dir(), p).unwrap_err().to_string();
    let want = |p: &str| {
        format!(
            "{p:?} is outside the project {} (files are read only inside it; symlinks are followed while they stay inside)",
            root.dir().display()
        )
    };
    for p in ["there", "nowhere", "sub/up", "cwd/x", "cwd"] {
        assert_eq!(shown(p), want(p));
        assert!(matches!(walked(&root, p), Err(Failure::Outside)), "{p}");
    }
    assert!(!shown("cwd").contains(&std::env::current_dir().unwrap().display().to_string()));
}

#[test]
fn a_symlink_loop_is_an_error_not_a_hang() {
    let d = scratch("loop");
    let inside = d.0.join("in");
    symlink("b", inside.join("a")).unwrap();
    symlink("a", inside.join("b")).unwrap();
    let root = Root::new(&inside, "project").unwrap();
    let e = root.read(root.dir(), "a").unwrap_err().to_string();
    assert!(
        e.starts_with("\"a\" cannot be read: Too many levels of symbolic links"),
        "{e}"
    );
}

#[test]
fn a_file_where_a_folder_is_wanted_is_not_a_folder() {
    let d = scratch("notdir");
    let root = Root::new(&d.0.join("in"), "project").unwrap();
    let e = root.read(root.dir(), "a.txt/b").unwrap_err().to_string();
    assert!(e.starts_with("\"a.txt/b\" cannot be read: Not a directory"), "{e}");
}

#[test]
fn a_hard_link_to_an_outside_file_is_read() {
    // Documented: a hard link is the file itself; the kernel cannot tell
    // its names apart, so the root cannot either.
    let d = scratch("hardlink");
    let Ok(()) = std::fs::hard_link(d.0.join("outside.txt"), d.0.join("in/hard.txt")) else {
        return;
    };
    let root = Root::new(&d.0.join("in"), "project").unwrap();
    assert_eq!(root.read_string(root.dir(), "hard.txt").unwrap(), "secret");
}

#[test]
fn listings_name_every_entry_and_say_where_links_lead() {
    use std::os::unix::ffi::OsStrExt;
    let d = scratch("list");
    let inside = d.0.join("in");
    std::fs::write(inside.join(std::ffi::OsStr::from_bytes(b"bad\xff.yaml")), "x").unwrap();
    symlink("missing.yaml", inside.join("dangling.yaml")).unwrap();
    symlink("sub", inside.join("linked")).unwrap();
    symlink(d.0.join("outside.txt"), inside.join("out.yaml")).unwrap();
    let root = Root::new(&inside, "project").unwrap();
    let listing = root.list(root.dir(), ".").unwrap().unwrap();
    let names: Vec<String> = listing
        .entries
        .iter()
        .map(|e| e.name.to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "a.txt",
            "bad\u{fffd}.yaml",
            "dangling.yaml",
            "linked",
            "out.yaml",
            "sub"
        ]
    );
    let kind = |i: usize| listing.entries[i].kind.as_ref().map_err(|e| e.to_string()).copied();
    assert_eq!(kind(1), Ok(Kind::File));
    assert_eq!(kind(2), Err("\"dangling.yaml\": no such file".to_string()));
    assert_eq!(kind(3), Ok(Kind::Folder));
    assert!(kind(4).unwrap_err().contains("is outside the project"));
    let bad = root.dir().join(std::ffi::OsStr::from_bytes(b"bad\xff.yaml"));
    assert_eq!(root.read_os(&bad, "bad").unwrap(), b"x");
    assert!(root.list(root.dir(), "none").unwrap().is_none());
}

#[test]
fn a_tracked_listing_notes_the_folder_alone() {
    let d = scratch("list-tracked");
    let inside = d.0.join("in");
    symlink("sub", inside.join("linked")).unwrap();
    symlink("missing.yaml", inside.join("dangling.yaml")).unwrap();
    let root = Root::new(&inside, "project").unwrap();
    let recorder = inputs::Recorder::new();
    inputs::track(&recorder, || root.list(root.dir(), ".").unwrap().unwrap());
    let noted: Vec<PathBuf> = recorder.inputs().files.into_keys().map(PathBuf::from).collect();
    assert_eq!(noted, [root.dir().to_path_buf()]);
    // The links' kinds are in the listing's hash: one leading elsewhere
    // changes it.
    let before = recorder.inputs().files[root.dir().as_os_str()];
    std::fs::remove_file(inside.join("linked")).unwrap();
    symlink("a.txt", inside.join("linked")).unwrap();
    assert_ne!(root.seen_again(root.dir(), &before), before);
}
