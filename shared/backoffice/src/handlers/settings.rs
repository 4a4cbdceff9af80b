//! The /setting pages' endpoints: staff accounts, roles, the system log,
//! and the signed-in user's own profile. Everything but the profile needs
//! manage:settings (Admin): these pages decide who may do what.

use envelope::{msg, ApiError};
use names::{DepartmentName, MenuKey, PermissionName, RoleName, UserName};
use permission::SETTINGS_MANAGE;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ctx::AppCtx;
use crate::domain::{audit, departments, menu_edit, menus, privilege, roles, staff, users};
use crate::paging::DEFAULT_PAGE_SIZE;
use crate::reply::{Reply, Versioned};
use crate::params::PageQuery;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Access::SignedIn, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): users (with their sessions and social links), roles, departments, menus, the system log and one's profile.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[USERS_BY_NAME, ROLES_BY_NAME, DEPTS, LOG_BY_TIME, LOG_BY_ACCOUNT, LOG_BY_TYPE, LOG, LOG_COUNT, LOG_REFUSED], &[USER, ROLE, DEPT, MENU, SOCIAL])
};

/// The account routes that create, delete or reset accounts: the group's
/// families and the password hashes (no other settings route reaches them).
pub const STAFF_KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(KEYS.reads, &[USER, PASSWORD, ROLE, DEPT, MENU, SOCIAL])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/userManagement/getList" => "user_management_list", Permission(SETTINGS_MANAGE), unaudited, "Staff accounts (filter by any part of the username, paging)", user_list, query = UserListQuery, data = crate::paging::Page<staff::UserView>),
        route!(POST "/userManagement/doEdit" => "user_management_edit", Permission(SETTINGS_MANAGE), audited, "Create or edit a staff account", user_edit, body = UserEditIn, data = staff::UserView).touching(&STAFF_KEYS),
        route!(POST "/userManagement/doDelete" => "user_management_delete", Permission(SETTINGS_MANAGE), audited, "Delete a staff account (not yourself, not the last admin)", user_delete, body = UserDeleteIn, data = ()).touching(&STAFF_KEYS),
        route!(POST "/userManagement/resetPassword" => "user_management_reset_password", Permission(SETTINGS_MANAGE), audited, "Set a new password for another staff account (your own is changed with /user/changePassword)", user_reset_password, body = ResetIn, data = ()).touching(&STAFF_KEYS),
        route!(GET "/roleManagement/getList" => "role_management_list", Permission(SETTINGS_MANAGE), unaudited, "Roles with their permissions and holders", role_list, query = RoleListQuery, data = RoleListPage),
        route!(POST "/roleManagement/doEdit" => "role_management_edit", Permission(SETTINGS_MANAGE), audited, "Create, edit or rename a role", role_edit, body = RoleEditIn, data = roles::Role),
        route!(POST "/roleManagement/doDelete" => "role_management_delete", Permission(SETTINGS_MANAGE), audited, "Delete a role nobody holds", role_delete, body = RoleDeleteIn, data = ()),
        route!(GET "/departmentManagement/getList" => "department_management_list", Permission(SETTINGS_MANAGE), unaudited, "The department tree", department_list, data = DepartmentTree),
        route!(POST "/departmentManagement/doEdit" => "department_management_edit", Permission(SETTINGS_MANAGE), audited, "Create, edit or move a department", department_edit, body = DepartmentIn, data = departments::Department),
        route!(POST "/departmentManagement/doDelete" => "department_management_delete", Permission(SETTINGS_MANAGE), audited, "Delete a department without sub-departments or users", department_delete, body = DepartmentRef, data = ()),
        route!(GET "/menuManagement/getList" => "menu_management_list", Permission(SETTINGS_MANAGE), unaudited, "The whole menu and route tree, with the components a node may use", menu_list, data = MenuTree),
        route!(POST "/menuManagement/doEdit" => "menu_management_edit", Permission(SETTINGS_MANAGE), audited, "Create or edit a menu entry", menu_edit, body = MenuEditIn, data = Versioned),
        route!(POST "/menuManagement/doDelete" => "menu_management_delete", Permission(SETTINGS_MANAGE), audited, "Delete a menu entry without sub-entries", menu_delete, body = MenuDeleteIn, data = Versioned),
        route!(GET "/systemLog/getList" => "system_log_list", Permission(SETTINGS_MANAGE), unaudited, "The system log, newest first, filtered by account prefix, type and days (paging); type and result in the caller's language", system_log_list, query = SystemLogQuery, data = SystemLogPage),
        route!(POST "/user/updateProfile" => "update_profile", SignedIn, audited, "Change the signed-in user's e-mail and avatar", update_profile, body = ProfileIn, data = Profile),
    ]
}

/// GET /userManagement/getList
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct UserListQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Part of the username, any case.
    #[serde(default, deserialize_with = "crate::params::filter_name")]
    #[schemars(length(max = 64))]
    pub username: Option<String>,
}

/// GET /roleManagement/getList
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct RoleListQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Part of the role name.
    pub role: Option<RoleName>,
}

/// GET /systemLog/getList
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SystemLogQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Accounts whose name starts with this (case-insensitive).
    #[serde(default, deserialize_with = "crate::params::filter_name")]
    #[schemars(length(max = 64))]
    pub account: Option<String>,
    /// One type of action: a `value` of the answer's `types`.
    #[serde(rename = "type", default, deserialize_with = "crate::params::filter_text")]
    #[schemars(length(max = 64))]
    pub kind: Option<String>,
    /// First local day (China time), `YYYY-MM-DD`, inclusive.
    #[serde(default, deserialize_with = "crate::params::from_day")]
    #[schemars(with = "Option<String>", extend("format" = "date"))]
    pub from: Option<i64>,
    /// Last local day (China time), `YYYY-MM-DD`, inclusive.
    #[serde(default, deserialize_with = "crate::params::to_day")]
    #[schemars(with = "Option<String>", extend("format" = "date"))]
    pub to: Option<i64>,
    /// The `cursor` of the previous page (pages past the numbered ones).
    pub cursor: Option<String>,
}

/// The user to delete: `username` (or `id`, the list's row key), or `ids`
/// with one entry (a list, or text without commas).
#[derive(Deserialize, JsonSchema)]
pub struct UserDeleteIn {
    username: Option<UserName>,
    id: Option<UserName>,
    ids: Option<NamesIn>,
}

/// A list of names, or one name as text.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum NamesIn {
    Many(Vec<UserName>),
    One(String),
}

impl UserDeleteIn {
    /// The one account named; deleting several at once is refused.
    fn username(self) -> Result<String, ApiError> {
        let from_ids = match self.ids {
            Some(NamesIn::Many(list)) if list.len() == 1 => list.into_iter().next(),
            Some(NamesIn::One(s)) if !s.contains(',') => {
                Some(UserName::parse(&s).map_err(|r| ApiError::bad_request(msg::request::field_words("ids", crate::messages::names::refusal(&r))))?)
            }
            _ => None,
        };
        self.username.or(self.id).or(from_ids).map(UserName::into_string).filter(|s| !s.is_empty()).ok_or_else(|| {
            ApiError::bad_request(msg::settings::users::say_which())
        })
    }
}

/// The role to delete: `role` (or `id`, the list's row key).
#[derive(Deserialize, JsonSchema)]
pub struct RoleDeleteIn {
    role: Option<RoleName>,
    id: Option<RoleName>,
}

/// GET /userManagement/getList?username&pageNo&pageSize
pub async fn user_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let UserListQuery { page, username } = call.query()?;
    let paging = page.paging(DEFAULT_PAGE_SIZE);
    // Any part of the name, any case. Staff accounts are few and the page
    // reads them all for its total anyway (as the unfiltered page does),
    // so the match is made on the accounts read.
    let part = username.unwrap_or_default().to_lowercase();
    let matching: Vec<_> = staff::matching(ctx, "").await?.iter().filter(|u| u.username.to_lowercase().contains(&part)).map(staff::view).collect();
    Ok(Reply::data(paging.page(&matching)))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserEditIn {
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.@-]{2,32}$"))]
    username: UserName,
    #[serde(default)]
    email: String,
    #[serde(default)]
    roles: Vec<RoleName>,
    department_id: Option<DepartmentName>,
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
    // Names are in canonical form from here on (`names`): the checks below
    // and the save see the same spelling.
    let roles: Vec<String> = input.roles.into_iter().map(RoleName::into_string).collect();
    // No escalation: grant only what you hold, change only who holds no more than you.
    privilege::may_grant_roles(ctx, &caller.principal, &roles).await?;
    if input.version.is_some() {
        if let Some(current) = users::get(ctx, &input.username).await? {
            privilege::may_manage_user(ctx, &caller.principal, &current).await?;
        }
    }
    let edit = staff::AccountEdit {
        username: input.username.into_string(),
        email: input.email,
        roles,
        department_id: input.department_id.filter(|d| !d.is_empty()).map(DepartmentName::into_string),
        enabled: input.enabled,
        password: input.password,
        version: input.version,
    };
    let user = staff::save(ctx, &actor, edit).await?;
    Ok(Reply::data_with_msg(staff::view(&user), msg::common::saved()))
}

/// The one username a request names: `username`, or a single `ids` entry.
/// POST /userManagement/doDelete {username}
pub async fn user_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let actor = caller.username().to_string();
    let username = call.req.payload::<UserDeleteIn>()?.username()?;
    if let Some(target) = users::get(ctx, &username).await? {
        privilege::may_manage_user(ctx, &caller.principal, &target).await?;
    }
    staff::delete(ctx, &actor, &username).await?;
    Ok(Reply::message(msg::common::deleted()))
}

#[derive(Deserialize, JsonSchema)]
pub struct ResetIn {
    username: UserName,
    #[schemars(length(min = 12, max = 128))]
    password: String,
}

/// POST /userManagement/resetPassword {username, password}: the user's
/// sessions end, so the old password stops working everywhere at once.
pub async fn user_reset_password(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let actor = caller.username().to_string();
    let input: ResetIn = call.req.payload()?;
    if let Some(target) = users::get(ctx, &input.username).await? {
        privilege::may_manage_user(ctx, &caller.principal, &target).await?;
    }
    staff::reset_password(ctx, &actor, &input.username, &input.password).await?;
    Ok(Reply::message(msg::settings::users::password_reset()))
}

/// GET /roleManagement/getList?role&pageNo&pageSize: roles, their
/// permissions and holder counts, plus the permissions a role can grant.
pub async fn role_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: RoleListQuery = call.query()?;
    let paging = q.page.paging(DEFAULT_PAGE_SIZE);
    let needle = q.role.as_deref().unwrap_or_default().to_lowercase();
    let matching: Vec<RoleRow> = roles::load_all(ctx)
        .await?
        .into_iter()
        .filter(|r| r.name.to_lowercase().contains(&needle))
        .map(|r| RoleRow {
            id: r.name.clone(),
            role: r.name,
            btn_roles_checked_list: r.permissions.clone(),
            permissions: r.permissions,
            description: r.description,
            user_count: r.user_count,
            version: r.version,
        })
        .collect();
    let page = paging.page(&matching);
    Ok(Reply::data(RoleListPage { list: page.list, total: page.total, permission_options: permission::ALL_PERMISSIONS }))
}

/// A role as the roles page lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoleRow {
    /// The role's name (the page's row key).
    pub id: String,
    pub role: String,
    pub permissions: Vec<String>,
    /// The permissions again, under the name the spec's role form uses.
    pub btn_roles_checked_list: Vec<String>,
    pub description: String,
    /// How many users hold it.
    pub user_count: i64,
    pub version: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoleListPage {
    pub list: Vec<RoleRow>,
    pub total: usize,
    /// Every permission a role can grant.
    pub permission_options: &'static [&'static str],
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoleEditIn {
    #[serde(alias = "name")]
    role: RoleName,
    old_role: Option<RoleName>,
    #[serde(default, alias = "btnRolesCheckedList")]
    permissions: Vec<PermissionName>,
    #[serde(default)]
    description: String,
    version: Option<i64>,
}

/// POST /roleManagement/doEdit
pub async fn role_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let principal = &call.caller()?.principal;
    let input: RoleEditIn = call.req.payload()?;
    let permissions: Vec<String> = input.permissions.into_iter().map(PermissionName::into_string).collect();
    let old_role = input.old_role.filter(|o| !o.is_empty()).map(RoleName::into_string);
    // The role as it is now (renamed: its old name) and as it will be.
    let existing = old_role.clone().unwrap_or_else(|| input.role.to_string());
    let current = roles::get(ctx, &existing).await?.map(|r| r.permissions).unwrap_or_default();
    privilege::may_define_role(principal, &existing, &current, &permissions)?;
    privilege::may_define_role(principal, &input.role, &[], &permissions)?;
    let role = roles::save(
        ctx,
        roles::RoleEdit { name: input.role.into_string(), old_name: old_role, permissions, description: input.description, version: input.version },
    )
    .await?;
    Ok(Reply::data_with_msg(role, msg::common::saved()))
}

/// POST /roleManagement/doDelete {role}
pub async fn role_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: RoleDeleteIn = call.req.payload()?;
    let name = input.role.or(input.id);
    let name = name.as_deref().filter(|s| !s.is_empty());
    let name = name.ok_or_else(|| ApiError::bad_request(msg::settings::roles::say_which()))?;
    if let Some(current) = roles::get(ctx, name).await? {
        privilege::may_define_role(&call.caller()?.principal, name, &current.permissions, &[])?;
    }
    roles::delete(ctx, name).await?;
    Ok(Reply::message(msg::common::deleted()))
}

/// GET /systemLog/getList?account&type&from&to&pageNo&pageSize&cursor
pub async fn system_log_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: SystemLogQuery = call.query()?;
    let paging = q.page.paging(DEFAULT_PAGE_SIZE);
    let filter = log_filter(&q)?;
    let cursor = q.cursor.as_deref();
    let skip = if cursor.is_some() { 0 } else { (paging.page_no - 1) * paging.page_size };
    if skip > audit::MAX_OFFSET {
        return Err(ApiError::bad_request(msg::settings::log::page_too_far(audit::MAX_OFFSET)));
    }
    if skip > 0 && (filter.kind.is_some() || filter.from_day.is_some() || filter.to_day.is_some()) {
        return Err(ApiError::bad_request(msg::settings::log::no_pages()));
    }
    let first_page = cursor.is_none();
    let page = audit::page(ctx, &filter, skip, paging.page_size, cursor).await?;
    // Calls refused for want of a sign-in are counted, not listed (read
    // with the first page; the pages after it carry 0).
    let refused_anonymous = if first_page { audit::refused_anonymous(ctx, 24).await? } else { 0 };
    let lang = call.req.lang();
    let list: Vec<_> = page.entries.into_iter().map(|e| audit::in_language(e, lang)).collect();
    let (total, total_known) = match page.total {
        Some(n) => (n, true),
        None => (list.len() as i64, false),
    };
    Ok(Reply::data(SystemLogPage {
        list,
        total,
        total_known,
        cursor: page.cursor,
        refused_anonymous_24h: refused_anonymous,
        types: first_page.then(|| audit::types(lang)),
    }))
}

/// The log's filters from the parsed query; 400 names the bad one.
fn log_filter(q: &SystemLogQuery) -> Result<audit::LogFilter, ApiError> {
    if let Some(k) = q.kind.as_deref().filter(|k| !audit::is_type(k)) {
        return Err(ApiError::bad_request(msg::settings::log::bad_type(format!("{k:?}"))));
    }
    if let (Some(f), Some(t)) = (q.from, q.to) {
        if f > t {
            return Err(ApiError::bad_request(msg::request::from_after_to()));
        }
    }
    Ok(audit::LogFilter { account_prefix: q.account.as_ref().map(|a| a.to_lowercase()), kind: q.kind.clone(), from_day: q.from, to_day: q.to })
}

/// One page of the system log.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SystemLogPage {
    /// Newest first; `type` and `executeResult` in the caller's language (Accept-Language).
    pub list: Vec<audit::LogEntry>,
    /// Entries matching the filter when `totalKnown` (the log counts per
    /// account, not per type or day); otherwise the entries on this page.
    pub total: i64,
    /// Whether `total` counts every matching entry; when false the list has
    /// no numbered pages and continues with the cursor.
    pub total_known: bool,
    /// Where the next page starts, if more may follow (a page filtered in
    /// memory can come back short and still have a cursor).
    pub cursor: Option<String>,
    /// Calls refused for want of a sign-in in the last 24 hours (first page only; 0 after it).
    #[serde(rename = "refusedAnonymous24h")]
    pub refused_anonymous_24h: i64,
    /// The types `type` accepts, named in the caller's language (first page only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<audit::LogType>>,
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
    Ok(Reply::data_with_msg(Profile { email: user.email.clone(), avatar: user.avatar_or_default().to_string() }, msg::common::saved()))
}

/// The signed-in user's own details after a change.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Profile {
    pub email: String,
    /// The avatar's address (a default one when none was set).
    pub avatar: String,
}

/// GET /departmentManagement/getList
pub async fn department_list(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let all = departments::all(ctx).await?;
    Ok(Reply::data(DepartmentTree { list: departments::tree(&all), total: all.len() }))
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DepartmentTree {
    /// The top-level departments, each with its sub-departments.
    pub list: Vec<departments::DepartmentNode>,
    /// How many departments there are at every level.
    pub total: usize,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepartmentIn {
    id: Option<DepartmentName>,
    #[serde(default)]
    parent_id: DepartmentName,
    name: DepartmentName,
    #[serde(default)]
    order: i64,
    version: Option<i64>,
}

/// POST /departmentManagement/doEdit {id?, parentId, name, order, version?}
pub async fn department_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: DepartmentIn = call.req.payload()?;
    let edit = departments::DepartmentEdit {
        id: input.id.map(DepartmentName::into_string),
        parent_id: input.parent_id.into_string(),
        name: input.name.into_string(),
        order: input.order,
        version: input.version,
    };
    let saved = departments::save(ctx, edit).await?;
    Ok(Reply::data_with_msg(saved, msg::common::saved()))
}

/// The department to delete.
#[derive(Deserialize, JsonSchema)]
pub struct DepartmentRef {
    id: DepartmentName,
}

/// POST /departmentManagement/doDelete {id}
pub async fn department_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: DepartmentRef = call.req.payload()?;
    let id = Some(input.id.as_str()).filter(|s| !s.is_empty());
    let id = id.ok_or_else(|| ApiError::bad_request(msg::settings::departments::say_which()))?;
    departments::delete(ctx, id).await?;
    Ok(Reply::message(msg::common::deleted()))
}

/// GET /menuManagement/getList
pub async fn menu_list(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let (tree, version) = menus::load_versioned(ctx).await?;
    let (list, total) = menu_edit::with_ids(&tree);
    Ok(Reply::data(MenuTree { list, total, version, components: menu_edit::known_components() }))
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct MenuTree {
    /// The whole route tree, every node with its `id` (its name).
    #[schemars(with = "Vec<menus::RouteNode>")]
    pub list: Vec<Value>,
    /// How many nodes there are at every level.
    pub total: usize,
    /// The tree's version, sent back with an edit.
    pub version: i64,
    /// The page components a node may name.
    pub components: std::collections::BTreeSet<String>,
}


#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MenuEditIn {
    original_name: Option<MenuKey>,
    #[serde(default)]
    parent_name: MenuKey,
    node: Value,
    version: i64,
}

/// POST /menuManagement/doEdit {originalName?, parentName, node, version}
pub async fn menu_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: MenuEditIn = call.req.payload()?;
    let original = input.original_name.as_deref().filter(|s| !s.is_empty());
    let version = menu_edit::save_node(ctx, original, &input.parent_name, &input.node, input.version).await?;
    Ok(Reply::data_with_msg(Versioned { version }, msg::settings::menus::saved()))
}

#[derive(Deserialize, JsonSchema)]
pub struct MenuDeleteIn {
    name: MenuKey,
    version: i64,
}

/// POST /menuManagement/doDelete {name, version}
pub async fn menu_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: MenuDeleteIn = call.req.payload()?;
    let version = menu_edit::delete_node(ctx, &input.name, input.version).await?;
    Ok(Reply::data_with_msg(Versioned { version }, msg::common::deleted()))
}
