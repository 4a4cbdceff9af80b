//! Endpoint handlers: each reads its input, calls the domain, answers.

pub mod assets;
pub mod auth;
pub mod budget;
pub mod cards;
pub mod certificates;
pub mod chargers;
pub mod commands;
pub mod commands_v201;
pub mod commands_ykc;
pub mod dashboard;
pub mod device_model;
pub mod finance;
pub mod monitoring;
pub mod operations;
pub mod orders;
pub mod demo;
pub mod search;
pub mod settings;
pub mod shell;
pub mod social;
