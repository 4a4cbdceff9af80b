//! The /setting pages' endpoints: staff accounts, roles, the system log,
//! and the signed-in user's own profile. Everything but the profile needs
//! manage:settings (Admin): these pages decide who may do what.

use envelope::{ApiError, Text};
use permission::SETTINGS_MANAGE;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::ctx::AppCtx;
use crate::domain::{audit, departments, menu_edit, menus, privilege, roles, staff, users};
use crate::paging::{Paging, DEFAULT_PAGE_SIZE};
use crate::reply::Reply;
use crate::handlers::assets::IdBody;
use crate::params::PageQuery;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Access::SignedIn, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): users (with their sessions and social links), roles, departments, menus, the system log and one's profile.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[USERS_BY_NAME, ROLES_BY_NAME, DEPTS, LOG_BY_TIME, LOG_BY_ACCOUNT, LOG, LOG_COUNT, LOG_REFUSED], &[USER, ROLE, DEPT, MENU, SOCIAL])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/userManagement/getList" => "user_management_list", Permission(SETTINGS_MANAGE), false, "Staff accounts (username prefix filter, paging)", user_list, query = UserListQuery),
        route!(POST "/userManagement/doEdit" => "user_management_edit", Permission(SETTINGS_MANAGE), true, "Create or edit a staff account", user_edit, body = UserEditIn),
        route!(POST "/userManagement/doDelete" => "user_management_delete", Permission(SETTINGS_MANAGE), true, "Delete a staff account (not yourself, not the last admin)", user_delete, body = UserDeleteIn),
        route!(POST "/userManagement/resetPassword" => "user_management_reset_password", Permission(SETTINGS_MANAGE), true, "Set a new password for another staff account (your own is changed with /user/changePassword)", user_reset_password, body = ResetIn),
        route!(GET "/roleManagement/getList" => "role_management_list", Permission(SETTINGS_MANAGE), false, "Roles with their permissions and holders", role_list, query = RoleListQuery),
        route!(POST "/roleManagement/doEdit" => "role_management_edit", Permission(SETTINGS_MANAGE), true, "Create, edit or rename a role", role_edit, body = RoleEditIn),
        route!(POST "/roleManagement/doDelete" => "role_management_delete", Permission(SETTINGS_MANAGE), true, "Delete a role nobody holds", role_delete, body = RoleDeleteIn),
        route!(GET "/departmentManagement/getList" => "department_management_list", Permission(SETTINGS_MANAGE), false, "The department tree", department_list),
        route!(POST "/departmentManagement/doEdit" => "department_management_edit", Permission(SETTINGS_MANAGE), true, "Create, edit or move a department", department_edit, body = DepartmentIn),
        route!(POST "/departmentManagement/doDelete" => "department_management_delete", Permission(SETTINGS_MANAGE), true, "Delete a department without sub-departments or users", department_delete, body = IdBody),
        route!(GET "/menuManagement/getList" => "menu_management_list", Permission(SETTINGS_MANAGE), false, "The whole menu and route tree, with the components a node may use", menu_list),
        route!(POST "/menuManagement/doEdit" => "menu_management_edit", Permission(SETTINGS_MANAGE), true, "Create or edit a menu entry", menu_edit, body = MenuEditIn),
        route!(POST "/menuManagement/doDelete" => "menu_management_delete", Permission(SETTINGS_MANAGE), true, "Delete a menu entry without sub-entries", menu_delete, body = MenuDeleteIn),
        route!(GET "/systemLog/getList" => "system_log_list", Permission(SETTINGS_MANAGE), false, "The system log, newest first (account filter, paging); type and result in the caller's language", system_log_list, query = SystemLogQuery, data = SystemLogPage),
        route!(POST "/user/updateProfile" => "update_profile", SignedIn, true, "Change the signed-in user's e-mail and avatar", update_profile, body = ProfileIn),
    ]
}

/// GET /userManagement/getList
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct UserListQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Username prefix.
    pub username: Option<String>,
}

/// GET /roleManagement/getList
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct RoleListQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Part of the role name.
    pub role: Option<String>,
}

/// GET /systemLog/getList
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SystemLogQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Only this account's entries.
    pub account: Option<String>,
    /// The `cursor` of the previous page (pages past the numbered ones).
    pub cursor: Option<String>,
}

/// What `one_username` reads: `username` (or `id`), or `ids` with one entry.
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct UserDeleteIn {
    username: Option<String>,
    id: Option<String>,
    ids: Option<Vec<String>>,
}

/// What `role_delete` reads: `role` (or `id`).
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct RoleDeleteIn {
    role: Option<String>,
    id: Option<String>,
}

/// GET /userManagement/getList?username&pageNo&pageSize
pub async fn user_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let paging = Paging::from_request(&call.req, DEFAULT_PAGE_SIZE)?;
    let prefix = call.req.query_param("username").unwrap_or_default();
    let matching: Vec<_> = staff::matching(ctx, prefix).await?.iter().map(staff::view).collect();
    Ok(Reply::data(json!({ "list": paging.slice(&matching), "total": matching.len() })))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserEditIn {
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.@-]{2,32}$"))]
    username: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    roles: Vec<String>,
    department_id: Option<String>,
    #[serde(default = "enabled")]
    enabled: bool,
    #[schemars(length(min = 12, max = 128))]
    password: Option<String>,
    version: Option<i64>,
}

fn enabled() -> bool {
    true
}

/// POST /userManagement/doEdit: without `version` creates the account
/// (password required), with it edits the account at that version.
pub async fn user_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let actor = caller.username().to_string();
    let input: UserEditIn = call.req.payload()?;
    // No escalation: grant only what you hold, change only who holds no more than you.
    privilege::may_grant_roles(ctx, &caller.principal, &input.roles).await?;
    if input.version.is_some() {
        if let Some(current) = users::get(ctx, input.username.trim()).await? {
            privilege::may_manage_user(ctx, &caller.principal, &current).await?;
        }
    }
    let edit = staff::AccountEdit {
        username: input.username,
        email: input.email,
        roles: input.roles,
        department_id: input.department_id.filter(|d| !d.trim().is_empty()),
        enabled: input.enabled,
        password: input.password,
        version: input.version,
    };
    let user = staff::save(ctx, &actor, edit).await?;
    Ok(Reply::DataWithMsg(json!(staff::view(&user)), Text::new("saved", "保存成功")))
}

/// The one username a request names: `username`, or a single `ids` entry.
fn one_username(body: &Value) -> Result<String, ApiError> {
    let named = body.get("username").or_else(|| body.get("id")).and_then(Value::as_str).map(str::to_string);
    let from_ids = match body.get("ids") {
        Some(Value::Array(list)) if list.len() == 1 => list[0].as_str().map(str::to_string),
        Some(Value::String(s)) if !s.contains(',') => Some(s.clone()),
        _ => None,
    };
    named.or(from_ids).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).ok_or_else(|| {
        ApiError::bad_request(Text::new("say which user (username), one at a time", "请指定一个用户（username）"))
    })
}

/// POST /userManagement/doDelete {username}
pub async fn user_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let actor = caller.username().to_string();
    let username = one_username(&call.req.body_value()?)?;
    if let Some(target) = users::get(ctx, &username).await? {
        privilege::may_manage_user(ctx, &caller.principal, &target).await?;
    }
    staff::delete(ctx, &actor, &username).await?;
    Ok(Reply::message(Text::new("deleted", "删除成功")))
}

#[derive(Deserialize, JsonSchema)]
pub struct ResetIn {
    username: String,
    #[schemars(length(min = 12, max = 128))]
    password: String,
}

/// POST /userManagement/resetPassword {username, password}: the user's
/// sessions end, so the old password stops working everywhere at once.
pub async fn user_reset_password(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let actor = caller.username().to_string();
    let input: ResetIn = call.req.payload()?;
    if let Some(target) = users::get(ctx, input.username.trim()).await? {
        privilege::may_manage_user(ctx, &caller.principal, &target).await?;
    }
    staff::reset_password(ctx, &actor, input.username.trim(), &input.password).await?;
    Ok(Reply::message(Text::new("the password was reset; the user must sign in again", "密码已重置，该用户需重新登录")))
}

/// GET /roleManagement/getList?role&pageNo&pageSize: roles, their
/// permissions and holder counts, plus the permissions a role can grant.
pub async fn role_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let paging = Paging::from_request(&call.req, DEFAULT_PAGE_SIZE)?;
    let needle = call.req.query_param("role").unwrap_or_default().to_lowercase();
    let matching: Vec<Value> = roles::load_all(ctx)
        .await?
        .into_iter()
        .filter(|r| r.name.to_lowercase().contains(&needle))
        .map(|r| json!({"id": r.name, "role": r.name, "permissions": r.permissions, "btnRolesCheckedList": r.permissions, "description": r.description, "userCount": r.user_count, "version": r.version}))
        .collect();
    Ok(Reply::data(json!({ "list": paging.slice(&matching), "total": matching.len(), "permissionOptions": permission::ALL_PERMISSIONS })))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoleEditIn {
    #[serde(alias = "name")]
    role: String,
    old_role: Option<String>,
    #[serde(default, alias = "btnRolesCheckedList")]
    permissions: Vec<String>,
    #[serde(default)]
    description: String,
    version: Option<i64>,
}

/// POST /roleManagement/doEdit
pub async fn role_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let principal = &call.caller()?.principal;
    let input: RoleEditIn = call.req.payload()?;
    // The role as it is now (renamed: its old name) and as it will be.
    let existing = input.old_role.as_deref().map(str::trim).filter(|o| !o.is_empty()).unwrap_or(input.role.trim()).to_string();
    let current = roles::get(ctx, &existing).await?.map(|r| r.permissions).unwrap_or_default();
    privilege::may_define_role(principal, &existing, &current, &input.permissions)?;
    privilege::may_define_role(principal, input.role.trim(), &[], &input.permissions)?;
    let role = roles::save(
        ctx,
        roles::RoleEdit { name: input.role, old_name: input.old_role, permissions: input.permissions, description: input.description, version: input.version },
    )
    .await?;
    Ok(Reply::DataWithMsg(json!(role), Text::new("saved", "保存成功")))
}

/// POST /roleManagement/doDelete {role}
pub async fn role_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body = call.req.body_value()?;
    let name = body.get("role").or_else(|| body.get("id")).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let name = name.ok_or_else(|| ApiError::bad_request(Text::new("say which role to delete (role)", "请指定要删除的角色（role）")))?;
    if let Some(current) = roles::get(ctx, name).await? {
        privilege::may_define_role(&call.caller()?.principal, name, &current.permissions, &[])?;
    }
    roles::delete(ctx, name).await?;
    Ok(Reply::message(Text::new("deleted", "删除成功")))
}

/// GET /systemLog/getList?account&pageNo&pageSize&cursor
pub async fn system_log_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let paging = Paging::from_request(&call.req, DEFAULT_PAGE_SIZE)?;
    let account = call.req.query_param("account");
    let cursor = call.req.query_param("cursor").map(str::to_string);
    let skip = if cursor.is_some() { 0 } else { (paging.page_no - 1) * paging.page_size };
    if skip > audit::MAX_OFFSET {
        return Err(ApiError::bad_request(Text::new(
            format!("numbered pages reach back {} entries; page further with the cursor", audit::MAX_OFFSET),
            format!("页码最多翻到第 {} 条，之后请使用游标翻页", audit::MAX_OFFSET),
        )));
    }
    let first_page = cursor.is_none();
    let (list, next) = audit::page(ctx, account, skip, paging.page_size, cursor).await?;
    let total = audit::total(ctx, account).await?;
    // Calls refused for want of a sign-in are counted, not listed (read
    // with the first page; the pages after it carry 0).
    let refused_anonymous = if first_page { audit::refused_anonymous(ctx, 24).await? } else { 0 };
    let lang = call.req.lang();
    let list = list.into_iter().map(|e| audit::in_language(e, lang)).collect();
    Ok(Reply::data(SystemLogPage { list, total, cursor: next, refused_anonymous_24h: refused_anonymous }))
}

/// One page of the system log.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SystemLogPage {
    /// Newest first; `type` and `executeResult` in the caller's language (Accept-Language).
    pub list: Vec<audit::LogEntry>,
    /// Entries in the log (of the account, when filtered).
    pub total: i64,
    /// Where the next page starts, if there is one.
    pub cursor: Option<String>,
    /// Calls refused for want of a sign-in in the last 24 hours (first page only; 0 after it).
    #[serde(rename = "refusedAnonymous24h")]
    pub refused_anonymous_24h: i64,
}

#[derive(Deserialize, JsonSchema)]
pub struct ProfileIn {
    #[serde(default)]
    email: String,
    #[serde(default)]
    avatar: String,
}

/// POST /user/updateProfile {email, avatar}: the user's own details.
pub async fn update_profile(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let username = call.caller()?.username().to_string();
    let input: ProfileIn = call.req.payload()?;
    let user = users::update_profile(ctx, &username, input.email.trim(), input.avatar.trim()).await?;
    Ok(Reply::DataWithMsg(json!({"email": user.email, "avatar": user.avatar_or_default()}), Text::new("saved", "保存成功")))
}

/// GET /departmentManagement/getList
pub async fn department_list(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let all = departments::all(ctx).await?;
    Ok(Reply::data(json!({ "list": departments::tree(&all), "total": all.len() })))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepartmentIn {
    id: Option<String>,
    #[serde(default)]
    parent_id: String,
    name: String,
    #[serde(default)]
    order: i64,
    version: Option<i64>,
}

/// POST /departmentManagement/doEdit {id?, parentId, name, order, version?}
pub async fn department_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: DepartmentIn = call.req.payload()?;
    let edit = departments::DepartmentEdit { id: input.id, parent_id: input.parent_id, name: input.name, order: input.order, version: input.version };
    let saved = departments::save(ctx, edit).await?;
    Ok(Reply::DataWithMsg(json!(saved), Text::new("saved", "保存成功")))
}

/// POST /departmentManagement/doDelete {id}
pub async fn department_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body = call.req.body_value()?;
    let id = body.get("id").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let id = id.ok_or_else(|| ApiError::bad_request(Text::new("say which department to delete (id)", "请指定要删除的部门（id）")))?;
    departments::delete(ctx, id).await?;
    Ok(Reply::message(Text::new("deleted", "删除成功")))
}

/// GET /menuManagement/getList
pub async fn menu_list(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let (tree, version) = menus::load_versioned(ctx).await?;
    let (list, total) = menu_edit::with_ids(&tree);
    Ok(Reply::data(json!({ "list": list, "total": total, "version": version, "components": menu_edit::known_components() })))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MenuEditIn {
    original_name: Option<String>,
    #[serde(default)]
    parent_name: String,
    node: Value,
    version: i64,
}

/// POST /menuManagement/doEdit {originalName?, parentName, node, version}
pub async fn menu_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: MenuEditIn = call.req.payload()?;
    let original = input.original_name.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let version = menu_edit::save_node(ctx, original, input.parent_name.trim(), &input.node, input.version).await?;
    Ok(Reply::DataWithMsg(json!({ "version": version }), Text::new("saved; the menu changes at the next sign-in", "保存成功，重新登录后菜单生效")))
}

#[derive(Deserialize, JsonSchema)]
pub struct MenuDeleteIn {
    name: String,
    version: i64,
}

/// POST /menuManagement/doDelete {name, version}
pub async fn menu_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: MenuDeleteIn = call.req.payload()?;
    let version = menu_edit::delete_node(ctx, input.name.trim(), input.version).await?;
    Ok(Reply::DataWithMsg(json!({ "version": version }), Text::new("deleted", "删除成功")))
}
