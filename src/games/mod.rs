//! The games of the platform, one folder each.

pub mod ball;
pub mod gateball;
