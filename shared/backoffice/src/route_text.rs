//! The Chinese summary of every route, keyed by its function name. The
//! English summary is the route table's own (`Route::summary`); the system
//! log shows an entry's type in the reader's language from these two, so a
//! route's action has one text per language, here and in the route table.
//! A test fails when a route has none (or a name here matches no route).

use envelope::{Lang, Text};

use crate::routes::Route;

/// `(function, Chinese summary)`, grouped like the route table.
const ZH: &[(&str, &str)] = &[
    // Sign-in and session.
    ("login_index", "用户名密码登录"),
    ("social_login_providers", "服务器提供的第三方登录平台"),
    ("social_login_authorize", "开始第三方登录：跳转地址（含一次性 state 与 PKCE 校验）和本浏览器的绑定值"),
    ("social_login", "第三方授权码登录（附 state 与本浏览器的绑定值）"),
    ("social_links", "本人帐号关联的第三方身份"),
    ("social_link_authorize", "开始为本人帐号关联第三方身份"),
    ("social_link", "把第三方返回的身份关联到本人帐号"),
    ("social_unlink", "解除本人帐号与第三方平台的关联"),
    ("register", "注册账号（待管理员授予角色）"),
    ("user_info", "当前用户的名称、头像、角色和权限"),
    ("logout", "退出登录：本次会话的令牌失效"),
    ("change_password", "修改本人密码"),
    ("expire_token", "检查令牌是否有效"),
    ("refresh_token", "用刷新令牌换取新的访问令牌"),
    ("public_key", "登录加密公钥（始终为空，由 TLS 保护）"),
    // Shell.
    ("router_list", "当前用户可见的菜单和路由"),
    ("search_list", "顶部搜索：按中英文标题或路径找页面，并找出关键词所指的订单、充电站、充电桩或充电卡（限有权查看的）"),
    ("notice_list", "顶部通知列表（本人未清空的通知和邮件）"),
    ("notice_edit", "发布或修改通知（HTML 已净化）"),
    ("notice_withdraw", "撤回通知"),
    ("notice_manage_list", "全部已发布的通知（发布管理）"),
    ("notice_read", "标记通知为已读"),
    ("notice_clear_all", "清空本人的通知列表"),
    // Demo pages.
    ("demo_table_list", "演示表格数据（标题筛选、分页）"),
    ("demo_table_edit", "演示表格模拟保存"),
    ("demo_table_delete", "演示表格模拟删除"),
    ("demo_goods_list", "演示商城商品"),
    ("demo_description_list", "演示表格详情的描述列表"),
    ("demo_remix_icon_list", "Remix 图标名称"),
    ("demo_workflow_get", "已保存的流程图"),
    ("demo_workflow_edit", "保存流程图"),
    // Settings pages.
    ("user_management_list", "员工账号列表"),
    ("user_management_edit", "新建或编辑员工账号"),
    ("user_management_delete", "删除员工账号"),
    ("user_management_reset_password", "重置其他员工的密码"),
    ("role_management_list", "角色及其权限和成员"),
    ("role_management_edit", "新建、编辑或重命名角色"),
    ("role_management_delete", "删除无人使用的角色"),
    ("department_management_list", "部门树"),
    ("department_management_edit", "新建、编辑或移动部门"),
    ("department_management_delete", "删除部门"),
    ("menu_management_list", "完整的菜单和路由树"),
    ("menu_management_edit", "新建或编辑菜单项"),
    ("menu_management_delete", "删除菜单项"),
    ("system_log_list", "系统日志"),
    ("update_profile", "修改本人的邮箱和头像"),
    ("operation_settings_get", "运营设置：离线判定和订单卡住判定"),
    ("operation_settings_edit", "修改运营设置"),
    // Orders and refunds.
    ("order_list", "充电订单列表"),
    ("order_detail", "订单详情"),
    ("order_close", "手动结束卡住或异常的订单"),
    ("order_offline_payment", "登记订单的线下收款（全额，付款方式与凭证号）"),
    ("order_write_off", "核销订单欠款（须填写原因）"),
    ("refund_request", "申请订单退款"),
    ("refund_approve", "批准退款"),
    ("refund_reject", "驳回退款"),
    ("refund_list", "退款申请列表"),
    // Finance and dashboard.
    ("finance_revenue", "按日或按月的营收"),
    ("finance_by_station", "各电站营收"),
    ("finance_settlement", "电站结算单"),
    ("finance_ledger", "退款台账"),
    ("finance_holder_bills", "后付费持卡人月度账单"),
    ("dashboard", "首页看板"),
    // Stations, tariffs, piles, connectors.
    ("area_list", "省市区树"),
    ("station_list", "电站列表"),
    ("station_detail", "电站详情"),
    ("station_add", "新建电站"),
    ("station_edit", "编辑电站"),
    ("station_delete", "删除电站"),
    ("station_power_budget", "电站功率预算及各充电桩收到的份额（整桩功率限制）和应答"),
    ("station_set_power_budget", "设置或取消电站功率预算（千瓦，校验版本）：向各在线充电桩下发其份额（整桩功率限制），或清除该限制"),
    ("charger_certificates", "充电桩的证书（本系统签发、已安装、充电桩报告的）及到期情况"),
    ("charger_certificate_sign", "按充电桩的证书签名请求签发充电桩证书"),
    ("charger_certificate_revoke", "吊销为充电桩签发的证书"),
    ("charger_security_events", "充电桩或全部充电桩的安全事件"),
    ("tariff_list", "电价模板列表"),
    ("tariff_detail", "电价模板详情"),
    ("tariff_versions", "电价模板的历史版本"),
    ("tariff_add", "新建分时电价模板"),
    ("tariff_edit", "保存电价修改（新版本）"),
    ("pile_list", "电站的充电桩"),
    ("pile_add", "登记充电桩及其充电枪（选择非默认安全配置需充电桩配置权限）"),
    ("pile_edit", "编辑充电桩（修改安全配置需充电桩配置权限，并断开充电桩连接）"),
    ("pile_delete", "删除充电桩及其充电枪"),
    ("pile_set_password", "设置或轮换充电桩密码（仅显示一次，哈希保存；断开充电桩当前连接）"),
    ("pile_message_log", "充电桩 OCPP 报文日志"),
    ("connector_list", "充电枪列表"),
    ("connector_history", "充电枪状态历史"),
    ("connector_edit", "编辑充电枪"),
    ("connector_action", "人工停用或恢复充电枪（维护）"),
    // Charging cards.
    ("card_list", "充电卡列表"),
    ("card_add", "新增充电卡"),
    ("card_edit", "编辑充电卡"),
    ("card_delete", "删除充电卡"),
    ("card_import", "导入充电卡"),
    ("card_top_up", "预付费充电卡充值"),
    ("card_search", "按卡号、持卡人或车牌查找充电卡"),
    ("card_ledger", "充电卡充值与扣费记录"),
    ("card_low_balance", "余额不足的预付费充电卡"),
    // Remote operations.
    ("charger_remote_start", "远程启动充电"),
    ("charger_remote_stop", "远程停止充电"),
    ("charger_unlock", "解锁充电枪"),
    ("charger_availability", "设置可用状态"),
    ("charger_trigger", "触发充电桩上报消息"),
    ("charger_reset", "重启充电桩"),
    ("charger_get_configuration", "读取充电桩配置"),
    ("charger_change_configuration", "修改充电桩配置"),
    ("charger_rotate_authorization_key", "通过OCPP轮换充电桩密钥（AuthorizationKey）：生成或检查，哈希保存，充电桩接受后生效，从不显示"),
    ("charger_clear_cache", "清除充电桩授权缓存"),
    ("charger_data_transfer", "发送厂商自定义数据"),
    ("charger_reserve_now", "预约充电枪"),
    ("charger_cancel_reservation", "取消预约"),
    ("charger_reservations", "充电桩的预约记录"),
    ("charger_update_firmware", "升级充电桩固件"),
    ("charger_install_certificate", "向充电桩安装根证书"),
    ("charger_get_installed_certificate_ids", "查询充电桩已安装的根证书"),
    ("charger_delete_certificate", "删除充电桩上的根证书"),
    ("charger_extended_trigger", "触发充电桩上报消息（安全扩展）"),
    ("charger_get_log", "获取充电桩诊断或安全日志"),
    ("charger_signed_update_firmware", "签名固件升级"),
    ("charger_certificate_signed", "向充电桩下发已签发的证书"),
    ("charger_get_diagnostics", "上传充电桩诊断信息"),
    ("charger_send_local_list", "下发本地授权列表"),
    ("charger_get_local_list_version", "读取本地授权列表版本"),
    ("charger_set_charging_profile", "设置充电功率计划"),
    ("charger_clear_charging_profile", "清除充电功率计划"),
    ("charger_get_composite_schedule", "读取充电枪的合成功率计划"),
    ("charger_commands", "充电桩的远程操作记录"),
    ("charger_command", "单个远程操作的状态和应答"),
];

/// The Chinese summary of the route served by `function`.
pub fn summary_zh(function: &str) -> Option<&'static str> {
    ZH.iter().find(|(f, _)| *f == function).map(|(_, zh)| *zh)
}

/// A route's summary in both languages.
pub fn summary(route: &Route) -> Text {
    Text::new(route.summary, summary_zh(route.function).unwrap_or(route.summary))
}

/// A route's summary in one language.
pub fn summary_in(route: &Route, lang: Lang) -> String {
    summary(route).get(lang).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_route_has_a_chinese_summary_and_every_entry_a_route() {
        let routes = crate::routes::routes();
        let missing: Vec<_> = routes.iter().filter(|r| summary_zh(r.function).map_or(true, |s| s.trim().is_empty())).map(|r| r.function).collect();
        assert!(missing.is_empty(), "routes without a Chinese summary in route_text.rs: {missing:?}");
        let functions: HashSet<_> = routes.iter().map(|r| r.function).collect();
        let stale: Vec<_> = ZH.iter().map(|(f, _)| *f).filter(|f| !functions.contains(f)).collect();
        assert!(stale.is_empty(), "summaries of routes that do not exist: {stale:?}");
        let mut seen = HashSet::new();
        let twice: Vec<_> = ZH.iter().map(|(f, _)| *f).filter(|f| !seen.insert(*f)).collect();
        assert!(twice.is_empty(), "listed twice: {twice:?}");
    }
}
