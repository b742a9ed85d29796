//! Files the store makes: readable and writable by their owner only, whatever the umask, since
//! a database holds every player's words and the hashes of their seats' secrets.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// The mode of every file the store creates: the owner reads and writes, nobody else.
#[cfg(unix)]
pub(crate) const PRIVATE: u32 = 0o600;

/// Creates `path`, which must not exist, open for reading and writing and private ([`PRIVATE`]).
/// The mode is set again once the file exists, since the one given at creation passes through
/// the process's umask.
pub(crate) fn create_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(PRIVATE);
        let file = options.open(path)?;
        file.set_permissions(std::fs::Permissions::from_mode(PRIVATE))?;
        Ok(file)
    }
    #[cfg(not(unix))]
    options.open(path)
}

/// Whether people other than the file's owner may read or write it (Unix; elsewhere, no).
pub(crate) fn shared(file: &File) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file.metadata().ok()?.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then_some(mode)
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        None
    }
}

/// Gives the complete file `tmp` the name `out` only if nothing has that name yet: of two
/// copies made to the same new name at once, one lands and the other is refused
/// (`AlreadyExists`). A hard link cannot replace a file, where a rename would; on a file system
/// without hard links, `out` is first created empty (exclusively), then replaced by `tmp`.
/// `tmp` is gone afterwards either way.
pub(crate) fn place_new(tmp: &Path, out: &Path) -> io::Result<()> {
    let placed = match std::fs::hard_link(tmp, out) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
        Err(_) => create_private(out).and_then(|_| {
            std::fs::rename(tmp, out).inspect_err(|_| {
                // Not left behind as an empty copy.
                let _ = std::fs::remove_file(out);
            })
        }),
    };
    let _ = std::fs::remove_file(tmp);
    placed
}
