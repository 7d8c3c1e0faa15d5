//! The converters, one file per direction or mode.

pub mod bidi;
pub mod check;
pub mod joiner;
pub mod leiri;
pub mod normalize;
pub mod to_iri;
pub mod to_uri;
