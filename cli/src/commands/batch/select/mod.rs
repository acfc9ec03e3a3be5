//! Which targets run here: `timings` balances the shards by a previous
//! report's durations, `affected` keeps the targets a change affects (and
//! lists them). Both are leaves beside the command's `args`.

pub mod affected;
pub mod timings;
