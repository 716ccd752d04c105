//! The workspace as `cargo metadata` describes it: its members, which of them the package
//! selection picks (cargo's rules: `-p`, `--workspace`/`--exclude`, else the root package, else
//! the default members), the workspace members each member depends on, and the target directory.

use super::args::WorkspaceArgs;
use super::error::WorkspaceError;
use cargo_metadata::{DependencyKind, Metadata, MetadataCommand, PackageId};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::PathBuf;

/// One workspace member.
#[derive(Clone, Debug)]
pub struct Member {
    pub id: PackageId,
    pub name: String,
    pub manifest_dir: PathBuf,
    /// Workspace members it depends on directly (normal dependencies).
    pub member_dependencies: Vec<PackageId>,
    /// Its dependencies outside the workspace (normal ones), by name: not analysed.
    pub external_dependencies: Vec<String>,
}

/// What workspace mode needs to know about the workspace.
#[derive(Clone, Debug)]
pub struct Workspace {
    pub root: PathBuf,
    /// Cargo's target directory (`--target-dir` or the workspace's).
    pub target_dir: PathBuf,
    pub members: Vec<Member>,
    /// The selected members, in workspace order.
    pub selected: Vec<PackageId>,
}

impl Workspace {
    pub fn member(&self, id: &PackageId) -> Option<&Member> {
        self.members.iter().find(|m| &m.id == id)
    }

    /// The members `id` depends on, transitively (not `id` itself), in workspace order.
    pub fn member_closure(&self, id: &PackageId) -> Vec<&Member> {
        let mut seen: BTreeSet<&PackageId> = BTreeSet::new();
        let mut stack: Vec<&PackageId> = self.member(id).map(|m| m.member_dependencies.iter().collect()).unwrap_or_default();
        while let Some(next) = stack.pop() {
            if next != id && seen.insert(next) {
                if let Some(m) = self.member(next) {
                    stack.extend(m.member_dependencies.iter());
                }
            }
        }
        self.members.iter().filter(|m| seen.contains(&m.id)).collect()
    }
}

/// Runs `cargo metadata` with the forwarded flags and applies the package selection.
pub fn read_workspace(args: &WorkspaceArgs, cargo: &OsString) -> Result<Workspace, WorkspaceError> {
    let mut command = MetadataCommand::new();
    command.cargo_path(cargo);
    if let Some(path) = &args.manifest_path {
        command.manifest_path(path);
    }
    let mut other: Vec<String> = args.lock_flags();
    for features in &args.features {
        other.push("--features".into());
        other.push(features.clone());
    }
    if args.all_features {
        other.push("--all-features".into());
    }
    if args.no_default_features {
        other.push("--no-default-features".into());
    }
    command.other_options(other);
    let metadata = command.exec().map_err(|e| WorkspaceError::Metadata { message: e.to_string() })?;
    let target_dir = args.target_dir.clone().unwrap_or_else(|| metadata.target_directory.clone().into_std_path_buf());
    // Absolute: the tools' paths go into the environment of build scripts, which run elsewhere.
    let target_dir = std::path::absolute(&target_dir).map_err(|e| WorkspaceError::Io { path: target_dir.display().to_string(), message: e.to_string() })?;
    let members = members_of(&metadata);
    let selected = select(args, &metadata, &members)?;
    Ok(Workspace { root: metadata.workspace_root.clone().into_std_path_buf(), target_dir, members, selected })
}

/// The workspace members with their dependencies.
fn members_of(metadata: &Metadata) -> Vec<Member> {
    let member_ids: BTreeSet<&PackageId> = metadata.workspace_members.iter().collect();
    metadata
        .workspace_packages()
        .into_iter()
        .map(|package| {
            let node = metadata.resolve.as_ref().and_then(|r| r.nodes.iter().find(|n| n.id == package.id));
            // Proc-macro crates (e.g. termcheck-annotations) run at compile time only: no code
            // of theirs is called at run time, so they are not "not analysed".
            let proc_macro = |id: &PackageId| metadata.packages.iter().find(|p| p.id == *id).is_some_and(|p| !p.targets.is_empty() && p.targets.iter().all(|t| t.is_proc_macro()));
            let normal = |d: &&cargo_metadata::NodeDep| d.dep_kinds.iter().any(|k| k.kind == DependencyKind::Normal) && !proc_macro(&d.pkg);
            let deps: Vec<&cargo_metadata::NodeDep> = node.map(|n| n.deps.iter().filter(normal).collect()).unwrap_or_default();
            Member {
                id: package.id.clone(),
                name: package.name.to_string(),
                manifest_dir: package.manifest_path.parent().map(|p| p.to_path_buf().into_std_path_buf()).unwrap_or_default(),
                member_dependencies: deps.iter().filter(|d| member_ids.contains(&d.pkg)).map(|d| d.pkg.clone()).collect(),
                external_dependencies: deps.iter().filter(|d| !member_ids.contains(&d.pkg)).map(|d| d.name.clone()).collect(),
            }
        })
        .collect()
}

/// The name part of a package spec (`name`, `name@1.0`, `name:1.0`).
fn spec_name(spec: &str) -> &str {
    spec.split(['@', ':']).next().unwrap_or(spec)
}

/// The selected members (cargo's rules).
fn select(args: &WorkspaceArgs, metadata: &Metadata, members: &[Member]) -> Result<Vec<PackageId>, WorkspaceError> {
    let named = |specs: &[String], m: &Member| specs.iter().any(|s| spec_name(s) == m.name);
    let selected: Vec<PackageId> = if !args.packages.is_empty() {
        members.iter().filter(|m| named(&args.packages, m)).map(|m| m.id.clone()).collect()
    } else if args.workspace {
        members.iter().filter(|m| !named(&args.exclude, m)).map(|m| m.id.clone()).collect()
    } else if let Some(root) = metadata.root_package() {
        vec![root.id.clone()]
    } else if metadata.workspace_default_members.is_available() {
        members.iter().filter(|m| metadata.workspace_default_members.contains(&m.id)).map(|m| m.id.clone()).collect()
    } else {
        members.iter().map(|m| m.id.clone()).collect()
    };
    if selected.is_empty() {
        let mut shown = args.selection_flags().join(" ");
        if shown.is_empty() {
            shown = "(default)".into();
        }
        return Err(WorkspaceError::NothingSelected { selection: shown });
    }
    Ok(selected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_names() {
        assert_eq!(spec_name("ffi-basic"), "ffi-basic");
        assert_eq!(spec_name("ffi-basic@0.1.0"), "ffi-basic");
        assert_eq!(spec_name("ffi-basic:0.1.0"), "ffi-basic");
    }
}
