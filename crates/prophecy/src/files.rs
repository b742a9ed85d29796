//! Files the user names: only regular files are read. A FIFO blocks the reader until someone
//! writes to it (for ever, if nobody does), and a device such as `/dev/zero` never ends.

use std::fs::{File, Metadata};
use std::io;
use std::path::Path;

/// What `metadata` shows instead of a regular file, as the end of a one-line message ("a
/// folder, not a file"); `None` for a regular file.
pub fn not_regular(metadata: &Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder, not a file");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a named pipe (FIFO), not a file");
        }
        if kind.is_block_device() || kind.is_char_device() {
            return Some("a device, not a file");
        }
        if kind.is_socket() {
            return Some("a socket, not a file");
        }
    }
    Some("not a regular file")
}

/// Opens `path` for reading if it is a regular file (a link to one is followed). Anything else
/// is refused before it is opened (opening a FIFO would already block): a folder with an
/// `IsADirectory` error, anything else with an `InvalidInput` one whose text is
/// [`not_regular`]'s.
pub fn open_regular(path: &Path) -> io::Result<File> {
    regular(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    // Replaced by something else between the two looks.
    regular(&file.metadata()?)?;
    Ok(file)
}

fn regular(metadata: &Metadata) -> io::Result<()> {
    match not_regular(metadata) {
        None => Ok(()),
        Some(why) if metadata.is_dir() => Err(io::Error::new(io::ErrorKind::IsADirectory, why)),
        Some(why) => Err(io::Error::new(io::ErrorKind::InvalidInput, why)),
    }
}
