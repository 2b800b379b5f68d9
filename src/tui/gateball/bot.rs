//! The bot seats' one call into the Gateball bots (`crate::bots::gateball`):
//! the app calls [`choose`] only from `App::bot_choose`.

pub use crate::bots::gateball::{Level, choose};
