//! The converters, one file per direction.

pub mod to_uri;
