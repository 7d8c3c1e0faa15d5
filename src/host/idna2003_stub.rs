//! TEMPORARY stub while the real module is written.
#![allow(missing_docs, dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Flags {
    pub allow_unassigned: bool,
    pub use_std3_ascii_rules: bool,
}
impl Flags {
    pub const CONVERT: Flags = Flags {
        allow_unassigned: true,
        use_std3_ascii_rules: true,
    };
}
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    Punycode,
}
impl Error {
    pub fn reason(self) -> &'static str {
        "stub"
    }
}
pub fn domain_to_ascii(_d: &str, _f: Flags, _o: &mut String) -> Result<(), Error> {
    Err(Error::Punycode)
}
