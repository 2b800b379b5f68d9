//! The integration tests, one module a file, in one crate so that they
//! link once. Run one file's tests with a filter: `cargo test --test all
//! perft::`.

mod bots;
mod cli;
mod gateball_cli;
mod gateball_files;
mod gateball_json;
mod gateball_random_games;
mod gateball_rules;
mod gball_cli;
mod gball_eval;
mod gball_files;
mod gball_json;
mod gball_perft;
mod gball_random_games;
mod gball_rules;
mod gball_scenarios;
mod gball_support;
mod gball_traces;
mod hardening;
mod init;
mod lab;
mod perft;
mod random_games;
mod rules;
mod rules_docs;
mod rulesets;
mod scenarios;
mod scripts;
mod shell;
mod tui;
mod tui_cli;
mod tui_gateball;
mod tui_harness;
mod web;
mod web_browser;
