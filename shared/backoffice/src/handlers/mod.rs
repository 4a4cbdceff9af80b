//! Endpoint handlers: each reads its input, calls the domain, answers.

pub mod auth;
pub mod demo;
pub mod shell;
pub mod social;
