//! `prophecy outline odds|show` (to be written).

use crate::Failure;
use crate::cli::{OutlineOddsArgs, OutlineShowArgs};

pub fn odds(_args: OutlineOddsArgs) -> Result<String, Failure> {
    Err(Failure::Runtime("not written yet".into()))
}

pub fn show(_args: OutlineShowArgs) -> Result<String, Failure> {
    Err(Failure::Runtime("not written yet".into()))
}
