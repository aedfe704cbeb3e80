//! The scopes each skill needs: from the card's skills (`AgentSkill.securityRequirements`)
//! and from configuration.

use std::collections::{BTreeMap, BTreeSet};

use a2a_jsonrpc::A2aError;
use a2a_types::v1::{AgentCard, Message, SendMessageRequest, Struct};

use super::Principal;

/// The metadata keys that name a message's skill by default: `skillId`, then `skill` (the
/// keys the mock agent routes by).
pub const DEFAULT_SKILL_KEYS: [&str; 2] = ["skillId", "skill"];

/// The longest skill id that is looked up (a longer one is refused as unknown, or needs
/// nothing when unknown skills are let through).
const MAX_SKILL_ID: usize = 256;

/// What one skill needs of its caller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Needs {
    /// From the card: any one of these scope sets suffices (one per security requirement of
    /// the skill; an empty set needs an authenticated caller only). None: no requirement.
    any_of: Vec<BTreeSet<String>>,
    /// From configuration: every one of these.
    all_of: BTreeSet<String>,
}

/// The scopes each skill needs, checked on `SendMessage` and `SendStreamingMessage` before a
/// task is created or the agent runs.
///
/// **Which skill a message asks for.** A2A messages do not name a skill on the wire, so the
/// server reads it from the message's `metadata`, then the request's `metadata`, under the
/// first key of [`keys`](Self::keys) that is there (by default `skillId`, then `skill`; the
/// value a string). A message that names none asks for the
/// [`default_skill`](Self::default_skill), if one is set, else for no skill (nothing is
/// checked). The agent must route by the same choice for the check to mean anything:
/// [`skill_of`](Self::skill_of) gives it, with the same keys.
///
/// **What a skill needs.** Each skill of the card with `securityRequirements` needs any one of
/// them: the caller must be authenticated and hold every scope that requirement lists (under
/// all of its schemes; which scheme authenticated the caller is the authenticator's business,
/// see [`SecurityRequirements`](super::SecurityRequirements)); an empty requirement (`{}`)
/// among them makes the skill open to anyone, as in OpenAPI. Scopes added with
/// [`require`](Self::require) are needed as well, all of them. The card's requirements are
/// read when the handler is built, so a card's skill requirements are always enforced.
///
/// **Refusals.** A caller without the scopes gets `PermissionDenied` (HTTP 403, gRPC
/// `PERMISSION_DENIED`); an anonymous caller of a skill that needs anything gets
/// `Unauthenticated` (401). A skill that neither the card nor the configuration knows is
/// allowed (it needs nothing), unless [`refuse_unknown`](Self::refuse_unknown) is on: then
/// it is refused as invalid params (`-32602`, HTTP 400).
///
/// ```
/// use a2a_server::auth::{Principal, SkillScopes};
/// use a2a_types::v1::{Message, Part, Role};
///
/// let skills = SkillScopes::new().require("deploy", ["deploy:run"]);
/// let mut message = Message::new("m-1", Role::User, vec![Part::text("ship it")]);
/// message.metadata = serde_json::json!({"skillId": "deploy"}).as_object().cloned();
/// assert_eq!(skills.skill_of(&message, None), Some("deploy"));
/// let operator = Principal::new("op").with_scopes(["deploy:run"]);
/// assert!(skills.check(Some("deploy"), Some(&operator)).is_ok());
/// let refused = skills.check(Some("deploy"), Some(&Principal::new("guest"))).unwrap_err();
/// assert_eq!(refused.message(), "permission denied: the skill `deploy` needs the scope `deploy:run`");
/// assert_eq!(refused.http_status(), 403);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillScopes {
    keys: Vec<String>,
    default_skill: Option<String>,
    refuse_unknown: bool,
    skills: BTreeMap<String, Needs>,
}

impl Default for SkillScopes {
    fn default() -> Self {
        Self {
            keys: DEFAULT_SKILL_KEYS.iter().map(|k| (*k).to_owned()).collect(),
            default_skill: None,
            refuse_unknown: false,
            skills: BTreeMap::new(),
        }
    }
}

impl SkillScopes {
    /// No configured scopes; the skill named under `skillId` or `skill`; unknown skills let
    /// through.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds scopes the skill needs (all of them), besides what the card requires of it.
    #[must_use]
    pub fn require<I, S>(mut self, skill: impl Into<String>, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.skills
            .entry(skill.into())
            .or_default()
            .all_of
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// The metadata keys that name the skill, tried in order (replacing `skillId`, `skill`).
    #[must_use]
    pub fn keys<I, S>(mut self, keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.keys = keys.into_iter().map(Into::into).collect();
        self
    }

    /// The skill a message that names none runs (and is checked for); none by default.
    #[must_use]
    pub fn default_skill(mut self, skill: impl Into<String>) -> Self {
        self.default_skill = Some(skill.into());
        self
    }

    /// Whether a message naming a skill that neither the card nor this configuration knows is
    /// refused (invalid params); off by default.
    #[must_use]
    pub fn refuse_unknown(mut self, on: bool) -> Self {
        self.refuse_unknown = on;
        self
    }

    /// These scopes with the card's skills added: every skill is known, and each one's
    /// `securityRequirements` are needed (any one of them).
    #[must_use]
    pub fn with_card(mut self, card: &AgentCard) -> Self {
        for skill in &card.skills {
            let needs = self.skills.entry(skill.id.clone()).or_default();
            // An empty requirement (`{}`, as in OpenAPI) makes the skill's security optional.
            if skill
                .security_requirements
                .iter()
                .any(|r| r.schemes.is_empty())
            {
                needs.any_of = Vec::new();
                continue;
            }
            needs.any_of = skill
                .security_requirements
                .iter()
                .map(|requirement| {
                    requirement
                        .schemes
                        .values()
                        .flat_map(|scopes| scopes.list.iter().cloned())
                        .collect()
                })
                .collect();
        }
        self
    }

    /// The skill a message asks for: the string under the first of [`keys`](Self::keys) in
    /// the message's metadata, else in the request's; else the default skill.
    pub fn skill_of<'a>(
        &'a self,
        message: &'a Message,
        request_metadata: Option<&'a Struct>,
    ) -> Option<&'a str> {
        let named = self.keys.iter().find_map(|key| {
            message
                .metadata
                .as_ref()
                .and_then(|m| m.get(key))
                .or_else(|| request_metadata.and_then(|m| m.get(key)))
                .and_then(serde_json::Value::as_str)
        });
        named.or(self.default_skill.as_deref())
    }

    /// The scopes configured for the skill with [`require`](Self::require).
    pub fn needed(&self, skill: &str) -> impl Iterator<Item = &str> {
        self.skills
            .get(skill)
            .into_iter()
            .flat_map(|n| n.all_of.iter())
            .map(String::as_str)
    }

    /// Checks a `SendMessage` request: the skill it asks for, and its caller.
    ///
    /// # Errors
    ///
    /// As [`check`](Self::check).
    pub fn check_request(
        &self,
        request: &SendMessageRequest,
        principal: Option<&Principal>,
    ) -> Result<(), A2aError> {
        self.check(
            self.skill_of(&request.message, request.metadata.as_ref()),
            principal,
        )
    }

    /// Checks that `principal` may run `skill` (`None`: the message asks for no skill).
    ///
    /// # Errors
    ///
    /// [`A2aError::unauthenticated`] for an anonymous caller of a skill that needs anything;
    /// [`A2aError::permission_denied`] naming the first missing scope;
    /// [`A2aError::invalid_params`] for an unknown skill when
    /// [`refuse_unknown`](Self::refuse_unknown) is on.
    pub fn check(
        &self,
        skill: Option<&str>,
        principal: Option<&Principal>,
    ) -> Result<(), A2aError> {
        let Some(skill) = skill else {
            return Ok(());
        };
        let needs = (skill.len() <= MAX_SKILL_ID)
            .then(|| self.skills.get(skill))
            .flatten();
        let Some(needs) = needs else {
            if self.refuse_unknown {
                let shown: String = skill.chars().take(64).collect();
                let more = if shown.len() < skill.len() { "..." } else { "" };
                return Err(A2aError::invalid_params(format!(
                    "the message asks for the skill `{shown}{more}`, which the agent does not have"
                )));
            }
            return Ok(());
        };
        if needs.any_of.is_empty() && needs.all_of.is_empty() {
            return Ok(());
        }
        let Some(principal) = principal else {
            return Err(A2aError::unauthenticated(format!(
                "the skill `{skill}` needs credentials, and the call has none"
            )));
        };
        if let Some(missing) = needs.all_of.iter().find(|s| !principal.has_scope(s)) {
            return Err(A2aError::permission_denied(format!(
                "the skill `{skill}` needs the scope `{missing}`"
            )));
        }
        if needs.any_of.is_empty()
            || needs
                .any_of
                .iter()
                .any(|set| set.iter().all(|s| principal.has_scope(s)))
        {
            return Ok(());
        }
        let alternatives: Vec<String> = needs
            .any_of
            .iter()
            .map(|set| {
                let scopes: Vec<String> = set.iter().map(|s| format!("`{s}`")).collect();
                format!("[{}]", scopes.join(", "))
            })
            .collect();
        Err(A2aError::permission_denied(format!(
            "the skill `{skill}` needs the scopes of one of its security requirements: {}",
            alternatives.join(" or ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{AgentSkill, Part, Role, SecurityRequirement};
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn card() -> AgentCard {
        AgentCard::new("A", "a", "1").with_skills([
            AgentSkill::new("open", "Open", "Anyone", ["x"]),
            AgentSkill::new("signed-in", "Signed in", "Callers", ["x"]).with_security_requirements(
                [SecurityRequirement::new().with_scheme("key", Vec::<String>::new())],
            ),
            AgentSkill::new("admin", "Admin", "Admins", ["x"]).with_security_requirements([
                SecurityRequirement::new().with_scheme("oauth", ["admin:read", "admin:write"]),
                SecurityRequirement::new().with_scheme("key", ["root"]),
            ]),
        ])
    }

    fn message(metadata: serde_json::Value) -> Message {
        let mut message = Message::new("m", Role::User, vec![Part::text("x")]);
        message.metadata = metadata.as_object().cloned();
        message
    }

    #[test]
    fn the_card_s_requirements_are_any_of_and_configured_scopes_all_of() {
        let skills = SkillScopes::new()
            .with_card(&card())
            .require("admin", ["audit"]);
        let admin = Principal::new("a").with_scopes(["admin:read", "admin:write", "audit"]);
        let root = Principal::new("r").with_scopes(["root", "audit"]);
        let half = Principal::new("h").with_scopes(["admin:read", "audit"]);
        let no_audit = Principal::new("n").with_scopes(["root"]);
        assert_eq!(skills.check(Some("admin"), Some(&admin)), Ok(()));
        assert_eq!(skills.check(Some("admin"), Some(&root)), Ok(()));
        assert_eq!(
            skills
                .check(Some("admin"), Some(&half))
                .unwrap_err()
                .message(),
            "permission denied: the skill `admin` needs the scopes of one of its security \
             requirements: [`admin:read`, `admin:write`] or [`root`]"
        );
        assert_eq!(
            skills
                .check(Some("admin"), Some(&no_audit))
                .unwrap_err()
                .message(),
            "permission denied: the skill `admin` needs the scope `audit`"
        );
        let anonymous = skills.check(Some("signed-in"), None).unwrap_err();
        assert_eq!(
            anonymous.message(),
            "unauthenticated: the skill `signed-in` needs credentials, and the call has none"
        );
        assert_eq!(anonymous.http_status(), 401);
        assert_eq!(skills.check(Some("signed-in"), Some(&half)), Ok(()));
        assert_eq!(skills.check(Some("open"), None), Ok(()));
        assert_eq!(skills.check(None, None), Ok(()));
        assert_eq!(skills.check(Some("elsewhere"), None), Ok(()));
        assert_eq!(skills.needed("admin").collect::<Vec<_>>(), ["audit"]);
        // An empty requirement among a skill's makes it open.
        let optional = AgentCard::new("A", "a", "1").with_skills([AgentSkill::new(
            "maybe",
            "Maybe",
            "Either",
            ["x"],
        )
        .with_security_requirements([
            SecurityRequirement::new().with_scheme("key", ["k"]),
            SecurityRequirement::new(),
        ])]);
        let optional = SkillScopes::new().with_card(&optional);
        assert_eq!(optional.check(Some("maybe"), None), Ok(()));
    }

    #[test]
    fn unknown_skills_are_refused_when_asked() {
        let skills = SkillScopes::new().with_card(&card()).refuse_unknown(true);
        let error = skills.check(Some("nope"), None).unwrap_err();
        assert_eq!(
            error.message(),
            "invalid params: the message asks for the skill `nope`, which the agent does not have"
        );
        assert_eq!(error.http_status(), 400);
        let long = "s".repeat(300);
        assert_eq!(
            skills.check(Some(&long), None).unwrap_err().message(),
            format!(
                "invalid params: the message asks for the skill `{}...`, which the agent does not have",
                "s".repeat(64)
            )
        );
        assert_eq!(skills.check(Some("open"), None), Ok(()));
    }

    #[test]
    fn the_skill_is_named_by_metadata_or_the_default() {
        let skills = SkillScopes::new();
        let request = json!({"skill": "from-request"});
        let request = request.as_object().unwrap();
        assert_eq!(
            skills.skill_of(&message(json!({"skill": "b", "skillId": "a"})), None),
            Some("a")
        );
        assert_eq!(
            skills.skill_of(&message(json!({"other": 1})), Some(request)),
            Some("from-request")
        );
        assert_eq!(skills.skill_of(&message(json!({"skillId": 7})), None), None);
        let custom = SkillScopes::new().keys(["x-skill"]).default_skill("open");
        assert_eq!(
            custom.skill_of(&message(json!({"skillId": "a"})), None),
            Some("open")
        );
        assert_eq!(
            custom.skill_of(&message(json!({"x-skill": "b"})), None),
            Some("b")
        );
        let request = SendMessageRequest::new(message(json!({"x-skill": "admin"})));
        let custom = custom.with_card(&card());
        assert_eq!(
            custom.check_request(&request, None).unwrap_err().message(),
            "unauthenticated: the skill `admin` needs credentials, and the call has none"
        );
    }
}
