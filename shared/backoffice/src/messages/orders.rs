//! The orders' own values in words: how an offline payment was made.

use envelope::{msg, Text};

use crate::domain::orders::settle::OfflineMethod;

/// How an offline payment was made ("bank transfer").
pub fn offline_method(m: OfflineMethod) -> Text {
    match m {
        OfflineMethod::Cash => msg::orders::method::cash(),
        OfflineMethod::BankTransfer => msg::orders::method::bank_transfer(),
        OfflineMethod::Wechat => msg::orders::method::wechat(),
        OfflineMethod::Alipay => msg::orders::method::alipay(),
        OfflineMethod::Other => msg::orders::method::other(),
    }
}
