//! The deploy pipeline is the repository's real workflow
//! (`.github/workflows/deploy.yml`, the file GitHub runs), and it runs with
//! the deploy role: every third-party action is pinned by commit and every
//! tool by version, so a moved tag or a new release cannot change what
//! runs there; each stage deploys from a job of its own GitHub environment
//! (the deploy role's trust policy admits no other), production after
//! staging.

use std::path::Path;

const WORKFLOW: &str = ".github/workflows/deploy.yml";

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn pipeline() -> String {
    std::fs::read_to_string(repo().join(WORKFLOW)).unwrap_or_else(|e| panic!("{WORKFLOW}: {e}"))
}

/// The lines of one job (`  name:` up to the next job).
fn job(text: &str, name: &str) -> Vec<String> {
    let start = format!("  {name}:");
    let mut lines = text.lines().skip_while(|l| *l != start);
    let first = lines.next().unwrap_or_else(|| panic!("no job {name} in {WORKFLOW}"));
    std::iter::once(first)
        .chain(lines.take_while(|l| l.is_empty() || l.starts_with("   ") || l.trim_start().starts_with('#')))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_workflow_github_runs_is_the_one_pipeline() {
    let workflows: Vec<String> =
        std::fs::read_dir(repo().join(".github/workflows")).expect(".github/workflows").map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(workflows, vec!["deploy.yml".to_string()], "one workflow, the one these tests read");
    assert!(!repo().join("infra/deploy/pipeline.yml").exists(), "no second copy of the pipeline outside .github/workflows");
    let text = pipeline();
    assert!(text.contains("\non:\n  push:\n    branches: [main]"), "it runs on every push to main");
    // The whole suite first (it includes the template checks), then one build for every stage.
    assert!(job(&text, "test").iter().any(|l| l.trim() == "run: .ci/run"));
    let build = job(&text, "build");
    assert!(build.iter().any(|l| l.trim() == "needs: test"));
    assert!(build.iter().any(|l| l.trim() == "run: infra/deploy/build.sh"));
}

#[test]
fn each_stage_deploys_from_its_environment_with_oidc_production_after_staging() {
    let text = pipeline();
    for (stage, needs) in [("staging", "build"), ("production", "deploy-staging")] {
        let lines = job(&text, &format!("deploy-{stage}"));
        // A line's value, without its comment.
        let has = |wanted: &str| lines.iter().any(|l| l.split(" #").next().unwrap_or_default().trim() == wanted);
        assert!(has(&format!("needs: {needs}")), "deploy-{stage} runs after {needs}");
        // The environment is what the deploy role's trust policy names in
        // its `sub` condition, and production's protection rule is the approval.
        assert!(has(&format!("environment: {stage}")), "deploy-{stage} runs in the {stage} environment");
        assert!(has(&format!("STAGE: {stage}")), "deploy-{stage} deploys the {stage} Stage");
        assert!(has("id-token: write"), "deploy-{stage} assumes its role through OIDC");
        assert!(has("role-to-assume: ${{ vars.AWS_DEPLOY_ROLE_ARN }}"), "deploy-{stage}: the role from the environment's variables");
        assert!(has("run: infra/deploy/deploy.sh"));
        assert!(!lines.iter().any(|l| l.contains("aws-access-key-id") || l.contains("secrets.AWS")), "no stored AWS keys");
    }
    let role = std::fs::read_to_string(repo().join("infra/deploy/deploy-role.yaml")).expect("infra/deploy/deploy-role.yaml");
    assert!(role.contains("'repo:${GitHubRepository}:environment:${GitHubEnvironment}'"), "the trust policy admits one environment's jobs only");
    // Only the deploy jobs may ask for an OIDC token.
    assert_eq!(text.matches("id-token: write").count(), 2);
}

#[test]
fn every_action_is_pinned_by_commit() {
    let text = pipeline();
    let uses: Vec<&str> = text.lines().filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("uses:")).map(str::trim).collect();
    assert!(uses.len() >= 5, "{uses:?}");
    for u in uses {
        let reference = u.split_once('@').map(|(_, r)| r.split_whitespace().next().unwrap_or_default()).unwrap_or_default();
        assert!(reference.len() == 40 && reference.bytes().all(|b| b.is_ascii_hexdigit()), "not pinned by commit: {u}");
    }
}

#[test]
fn every_installed_tool_has_a_version() {
    let text = pipeline();
    let installs: Vec<&str> = text.lines().filter(|l| l.contains("pip install")).collect();
    assert!(installs.len() >= 2, "{installs:?}");
    for line in installs {
        let packages = line.split("pip install").nth(1).unwrap_or_default().split_whitespace().filter(|w| !w.starts_with('-'));
        for p in packages {
            assert!(p.contains("=="), "no version for {p} in: {line}");
        }
    }
    for line in text.lines().filter(|l| l.trim_start().starts_with("toolchain:")) {
        assert!(line.chars().any(|c| c.is_ascii_digit()), "the Rust toolchain is a version: {line}");
    }
}
