//! The known-services rule: a query naming a service the catalog lacks gets no answer.

use toolsift::listing::ResultForm;
use toolsift::{Catalog, Reason, ToolKind, ToolSearch, load_mcp};

use crate::{all_catalog, mixed, real_catalog};

/// One MCP server from inline tools: (name, description) pairs.
fn server(name: &str, tools: &[(&str, &str)]) -> toolsift::Server {
    let list: Vec<String> = tools
        .iter()
        .map(|(n, d)| {
            format!(
                r#"{{"name": "{n}", "description": "{d}", "inputSchema": {{"type": "object"}}}}"#
            )
        })
        .collect();
    load_mcp(format!("[{}]", list.join(",")), name).expect("valid tools").server
}

/// The services `query` is refused for, or `None` when it is answered.
fn refused(search: &ToolSearch, query: &str) -> Option<Vec<String>> {
    let results = search.search(query, 10);
    let why = results.refusal()?;
    assert_eq!(why.reason(), Reason::MissingService, "{query:?}: {why}");
    Some(why.missing_services().to_vec())
}

#[test]
fn a_missing_service_empties_the_answer_on_real_catalogs() {
    let search = mixed();
    for (query, missing) in [
        ("bitbucket open pull request", "bitbucket"),
        ("acknowledge the PagerDuty incident", "pagerduty"),
        ("create a task in Asana for the launch", "asana"),
        ("Jenkins: trigger the nightly build", "jenkins"),
    ] {
        assert_eq!(refused(&search, query), Some(vec![missing.to_owned()]), "{query:?}");
    }
    // Present services, and words that are not services, answer as before.
    for query in ["github open pull request", "post a message to a slack channel", "list pods"] {
        assert_eq!(refused(&search, query), None, "{query:?}");
        assert!(!search.search(query, 10).is_empty(), "{query:?}");
    }
}

#[test]
fn a_missing_service_named_next_to_a_present_one_may_be_context() {
    let search = mixed();
    // The request is for GitHub or Slack (a known service, or a server named by its first
    // word); the missing service only says where the matter came from.
    for (query, tool) in [
        ("create a github issue for the bug reported in intercom", "mcp__github__create_issue"),
        ("post the pagerduty incident summary to slack", "mcp__slack__slack_post_message"),
    ] {
        let results = search.search(query, 5);
        assert!(results.hits().iter().any(|h| h.name() == tool), "{query:?}: {results:?}");
    }
    // A new thing of the missing service is what is asked for, whatever else is named.
    for (query, missing) in [
        ("create a trello card to follow up on the github issue", "trello"),
        ("send a whatsapp message about the slack outage", "whatsapp"),
        ("open a new bitbucket repo like our github one", "bitbucket"),
    ] {
        assert_eq!(refused(&search, query), Some(vec![missing.to_owned()]), "{query:?}");
    }
}

/// A search over all 70 tuning catalogs (`xtask/tuning/all`).
fn all_catalogs() -> ToolSearch {
    ToolSearch::new(all_catalog()).expect("default settings")
}

/// Requests written by hand against the 70 catalogs (not tuning queries): the service rules
/// refuse what no connected server does, and answer requests that name a service as
/// context, a user's name for a thing, or what to search for.
#[test]
fn hand_written_requests_on_all_catalogs() {
    let search = all_catalogs();
    for query in [
        // A present service as context, the action on a server named by its first word.
        "post the sentry error summary in the slack channel",
        "add the figma link to the linear issue",
        "write the mongodb query results to a google sheet",
        "find the notion page about the stripe integration",
        // A missing service as context, next to a present one.
        "create a github issue for the bug reported in intercom",
        "log the zendesk ticket number in the jira issue",
        "post the pagerduty incident summary to slack",
        // The user's name for a thing, and what to search for.
        "discord post an announcement in the general channel",
        "clickhouse list the tables in the analytics database",
        "gdrive search for budget spreadsheet",
        "close GitHub's stale issues",
        // A phrase of the lexicon: GitLab's tools say "merge request".
        "list pull requests in gitlab",
        // Plain requests to present services.
        "okta suspend the contractor's account",
        "datadog mute the noisy host for an hour",
        // What happened first, the request after the comma; when, not what.
        "today's push of my Cloudflare Worker broke checkout, bring back the one that was live yesterday",
        // ... and the request first, what happened after the comma.
        "put our Cloudflare worker back the way it was yesterday, today's deploy broke checkout",
        "pull up the stack trace for Sentry issue BACKEND-4F2, it started spiking this morning",
        // "make sure" asks for nothing made, and `patch` is outside the request's clause.
        "make sure web-07 doesn't page anyone in Datadog for the next two hours while we patch it",
        // A relative clause describes the thing acted on.
        "deactivate the Okta account of the contractor whose engagement ended today",
        // A word in the past tense says what happens, not what is asked.
        "who else gets pinged when the PROJ-123 Jira ticket changes?",
        // The request's verb, said by the service's tools (Feishu's in Chinese).
        "send a message to the launch group chat in Feishu saying we ship tomorrow",
        // A missing service named only where the request says what happened, or as what
        // documentation is about: tools that read files or docs may serve it.
        "I exported my Obsidian vault to ~/notes, open ideas.md and tell me what's in it",
        "pull the prisma docs on transactions",
        "read the heroku changelog",
        // Sentences are parts too: the request is the last that states no situation.
        "is my lookup on the orders collection scanning everything or actually hitting a key? show me how mongo runs it",
        "Is the Elasticsearch cluster healthy? Searches have been timing out all morning",
        // A verb that does again what a verb its tools say does: GitHub's
        // `update_issue_state` opens and closes issues.
        "reopen the closed github issue 42",
        "reopen the gitlab issue",
        // Words for the connection itself.
        "what can the CircleCI integration do?",
        "what can the stripe plugin do for me",
    ] {
        let results = search.search(query, 10);
        assert!(!results.is_empty(), "{query:?}: {:?}", results.refusal());
    }
    // The named service is what is acted on: another server's tool name says the request.
    // And a tool's name written with one word in the other number names it.
    for (query, first) in [
        ("list_page", "list_pages"),
        ("getPullRequestFile", "get_pull_request_files"),
        ("create_pr", "create_pull_request"),
        ("getApp", "getApplication"),
        ("forward local port 8080 to the grafana service", "port_forward"),
        ("install the prometheus helm chart", "helm_install"),
    ] {
        let results = search.search(query, 10);
        let hit = results.hits().first().unwrap_or_else(|| panic!("{query:?} refused"));
        assert!(hit.name().ends_with(first), "{query:?}: {}", hit.name());
    }
    for (query, reason) in [
        ("create a trello card to follow up on the hubspot lead", Reason::MissingService),
        ("send a whatsapp message about the discord event", Reason::MissingService),
        ("bitbucket open pull request", Reason::MissingService),
        // The missing service in the request's clause, after what happened or beside docs.
        ("the build is green, deploy the app to heroku", Reason::MissingService),
        ("check the heroku docs and then scale the heroku dynos to 3", Reason::MissingService),
        ("stripe delete a customer", Reason::NotOffered),
        // No Stripe tool sends, so none sends again.
        ("resend the stripe invoice to the customer", Reason::NotOffered),
        ("circleci cancel a workflow", Reason::NotOffered),
        ("cancel the CircleCI pipeline that's still running on my branch", Reason::NotOffered),
        ("purge the cloudflare cache for a url", Reason::NotOffered),
        ("discord kick a member from the server", Reason::NotOffered),
        // The request's verb: no Discord tool bans.
        ("ban this spammer from our discord server", Reason::NotOffered),
        // Linear's `assignIssue` says it, but Sentry's tool is about issues too.
        ("sentry assign the issue to the frontend team", Reason::NotOffered),
    ] {
        let results = search.search(query, 10);
        let why = results.refusal().unwrap_or_else(|| panic!("{query:?} answered"));
        assert_eq!(why.reason(), reason, "{query:?}: {why}");
    }
}

/// Everyday things no tool is named for are refused; the same things inside a request about
/// a calendar, a message, a place or a page are answered.
#[test]
fn everyday_errands_no_tool_is_named_for_are_refused() {
    let search = all_catalogs();
    for (query, thing) in [
        ("order a large pepperoni pizza for delivery", "pizza"),
        ("turn off the living room lights", "lights"),
        ("Book me a flight to Chicago next Friday", "flight"),
        ("set the thermostat to 21 degrees", "thermostat"),
        ("call a taxi to the airport", "taxi"),
    ] {
        assert_eq!(refused(&search, query), Some(vec![thing.to_owned()]), "{query:?}");
    }
    for query in [
        // Written in a calendar, a message, an inbox.
        "add my flight to Chicago to my google calendar",
        "post in #general that the pizza has arrived",
        "search my inbox for the flight confirmation",
        "schedule the plumber visit for tuesday morning",
        // What an action is for, or what a message says.
        "block two hours on Friday for my haircut",
        "text my wife that my flight is delayed",
        // A question, and information about a place or a page.
        "how long is the drive to the hotel",
        "find restaurants near the office",
        "geocode the hotel address",
        "scrape the menu from the restaurant site",
    ] {
        assert_eq!(refused(&search, query), None, "{query:?}");
    }
}

/// A catalog with a tool named for the thing answers it, and the rule goes with the
/// known-services list.
#[test]
fn an_errand_a_tool_is_named_for_is_answered() {
    let mut catalog = Catalog::new();
    catalog.add_server(server("travel", &[("search_flights", "Search for flights.")]));
    catalog.add_server(server("shop", &[("place_order", "Place an order for a pet.")]));
    let search = ToolSearch::new(catalog.clone()).expect("default settings");
    let hits = search.search("book me a flight to Chicago", 5);
    assert_eq!(hits.hits().first().map(|h| h.name()), Some("mcp__travel__search_flights"));
    assert_eq!(refused(&search, "order a pizza for the team"), Some(vec!["pizza".to_owned()]));
    // Without the rule, the pet shop's order tool looks like an answer.
    let off = ToolSearch::builder()
        .known_services(Vec::<String>::new())
        .build(catalog)
        .expect("valid settings");
    let hits = off.search("order a pizza for the team", 5);
    assert_eq!(hits.hits().first().map(|h| h.name()), Some("mcp__shop__place_order"));
}

#[test]
fn names_make_a_service_present_and_descriptions_do_not() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "ci",
        &[("run_pipeline", "Run a pipeline for a GitHub or Bitbucket repository.")],
    ));
    catalog.add_server(server("atlassian", &[("jira_create_issue", "Create an issue.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    // The server name `ci` and the tool names never say bitbucket: a description mention
    // does not make Bitbucket present, and a request for some other thing of it is refused.
    assert_eq!(refused(&search, "merge a bitbucket pull request"), Some(vec!["bitbucket".into()]));
    // But a tool whose name the request spells, and whose own text names the service, does
    // what is asked.
    assert_eq!(refused(&search, "run a bitbucket pipeline"), None);
    assert_eq!(
        search.search("run a bitbucket pipeline", 5).hits()[0].name(),
        "mcp__ci__run_pipeline"
    );
    // A tool name makes the service present, whatever its server is called.
    assert_eq!(
        search.search("jira create issue", 5).hits()[0].name(),
        "mcp__atlassian__jira_create_issue"
    );
}

#[test]
fn aliases_stand_for_their_service() {
    let mut catalog = Catalog::new();
    catalog.add_server(server("mongodb", &[("find", "Find documents in a collection.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    assert_eq!(refused(&search, "find documents in the mongo collection"), None);
    // Another service stays missing.
    assert_eq!(refused(&search, "find documents in redis"), Some(vec!["redis".into()]));
}

#[test]
fn updates_keep_the_rule_in_step() {
    let mut search = ToolSearch::new(real_catalog(&[("mcp/github.json", ToolKind::Mcp, "github")]))
        .expect("default settings");
    let query = "bitbucket open pull request";
    assert!(refused(&search, query).is_some());
    search
        .add_server(server("bitbucket", &[("create_pull_request", "Open a pull request.")]))
        .expect("valid update");
    assert_eq!(search.search(query, 1).hits()[0].name(), "mcp__bitbucket__create_pull_request");
    // Replacing the tools keeps the server name, so the service stays present; pull
    // requests went with the tool, which the action rule notices.
    search
        .replace_tools(
            "bitbucket",
            server("x", &[("list_repositories", "List repositories.")]).tools,
        )
        .expect("valid update");
    assert!(!search.search("bitbucket list repositories", 5).is_empty());
    let why = search.search(query, 5).refusal().cloned().expect("refused");
    assert_eq!(why.reason(), Reason::NotOffered);
    search.remove_server("bitbucket").expect("valid update");
    assert!(refused(&search, query).is_some());
    // And the result equals a fresh build of the same catalog.
    let fresh = ToolSearch::new(search.catalog().clone()).expect("default settings");
    assert_eq!(fresh.search(query, 10), search.search(query, 10));
}

#[test]
fn the_list_can_be_replaced_or_turned_off() {
    let catalog = real_catalog(&[("mcp/github.json", ToolKind::Mcp, "github")]);
    let off = ToolSearch::builder()
        .known_services(Vec::<String>::new())
        .build(catalog.clone())
        .expect("valid settings");
    assert!(!off.search("bitbucket open pull request", 10).is_empty());
    let own = ToolSearch::builder()
        .known_services(["Forgejo codeberg", "not one word", ""])
        .build(catalog)
        .expect("valid settings");
    assert_eq!(refused(&own, "open a pull request on codeberg"), Some(vec!["codeberg".into()]));
    assert_eq!(refused(&own, "open a pull request on forgejo"), Some(vec!["forgejo".into()]));
    // Not on the replaced list any more.
    assert_eq!(refused(&own, "bitbucket open pull request"), None);
}

#[test]
fn the_model_is_told_which_service_is_missing() {
    let search = mixed();
    let query = "acknowledge the pagerduty incident";
    let results = search.search(query, 10);
    let why = results.refusal().expect("refused");
    assert_eq!(why.to_string(), "the catalog has no tools for pagerduty");
    let text = search.render(query, &results, ResultForm::Text).to_string();
    assert!(text.contains(r#"no connected server provides "pagerduty""#), "{text}");
}

#[test]
fn a_present_service_without_the_action_says_so() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "circleci",
        &[
            ("rerun_workflow", "Rerun a workflow from its start or from the failed job."),
            ("get_build_failure_logs", "Get the logs of a failed build."),
        ],
    ));
    catalog.add_server(server(
        "gitlab",
        &[("cancel_pipeline", "Cancel a running pipeline."), ("list_pipelines", "List pipelines.")],
    ));
    let search = ToolSearch::new(catalog).expect("default settings");
    // `cancel` is tool vocabulary (a GitLab tool's name) but no CircleCI tool matches it.
    let results = search.search("circleci cancel running workflow", 10);
    let why = results.refusal().expect("refused");
    assert_eq!(why.reason(), Reason::NotOffered);
    assert_eq!(why.not_offered_word(), Some(("circleci", "cancel")));
    assert_eq!(why.to_string(), r#"no circleci tool matches "cancel""#);
    let text = search.render("circleci cancel running workflow", &results, ResultForm::Text);
    assert!(text.to_string().contains(r#"no "circleci" tool matches "cancel""#), "{text}");
    // What CircleCI does offer is answered, and so is the action without the service.
    assert_eq!(
        search.search("circleci rerun workflow", 1).hits()[0].name(),
        "mcp__circleci__rerun_workflow"
    );
    assert_eq!(
        search.search("cancel running pipeline", 1).hits()[0].name(),
        "mcp__gitlab__cancel_pipeline"
    );
    // Words of identifiers are the user's data, not the action.
    assert!(!search.search("circleci rerun workflow cancel_me", 5).is_empty());
    // Words no tool name uses are not judged: a paraphrase keeps its answer.
    assert!(!search.search("circleci rerun the workflow that broke", 5).is_empty());
}

#[test]
fn a_query_that_names_another_connected_server_may_ask_that_server() {
    let mut catalog = Catalog::new();
    catalog.add_server(server("circleci", &[("rerun_workflow", "Rerun a workflow.")]));
    catalog.add_server(server("gitlab", &[("cancel_pipeline", "Cancel a pipeline.")]));
    catalog.add_server(server("slack-web", &[("chat_postMessage", "Post a message.")]));
    let mut search = ToolSearch::new(catalog).expect("default settings");
    assert!(search.search("circleci cancel running workflow", 5).is_empty());
    // CircleCI is context here: the request may be for Slack, which the catalog calls
    // `slack` in no other server's names.
    let query = "tell me in slack how to cancel a circleci workflow";
    assert!(!search.search(query, 5).is_empty(), "{query}");
    search.remove_server("slack-web").expect("valid update");
    assert!(search.search(query, 5).is_empty(), "{query}");
    // An ordinary word that also names a server is not taken for that server: `time` is in
    // the names of three servers' tools, only one of them the `time` server.
    search.add_server(server("time", &[("get_current_time", "The current time.")])).unwrap();
    search.add_server(server("tracker", &[("log_time", "Log time spent.")])).unwrap();
    search.add_server(server("sheets", &[("time_sheet", "Read a time sheet.")])).unwrap();
    let query = "circleci cancel running workflow in time for the release";
    assert!(search.search(query, 5).is_empty(), "{query}");
    let fresh = ToolSearch::new(search.catalog().clone()).expect("default settings");
    assert_eq!(fresh.search(query, 10), search.search(query, 10));
}

#[test]
fn a_word_that_names_the_thing_asked_about_is_not_judged() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "clickhouse",
        &[
            ("list_databases", "List databases."),
            ("list_tables", "List the tables of a database."),
            ("describe_table", "Describe a table of a database."),
        ],
    ));
    catalog.add_server(server("ga", &[("get_analytics_report", "Get a report.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    // `analytics` is tool vocabulary, and more specific than `database`, but here it is the
    // name of the database asked about: after a determiner, before a word ClickHouse offers.
    let query = "clickhouse list the tables in the analytics database";
    assert_eq!(search.search(query, 1).hits()[0].name(), "mcp__clickhouse__list_tables");
    // Not after a determiner, or not before an offered word, it is what is asked for.
    for query in ["clickhouse show analytics databases", "clickhouse show the analytics report"] {
        let results = search.search(query, 5);
        let why = results.refusal().expect("refused");
        assert_eq!(why.not_offered_word(), Some(("clickhouse", "analytics")), "{query}");
    }
}

#[test]
fn a_present_service_that_never_does_the_action_asked_says_so() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "circleci",
        &[
            ("rerun_workflow", "Rerun a workflow from its start."),
            ("get_workflow", "Get the status of a workflow."),
        ],
    ));
    catalog.add_server(server("gitlab", &[("remove_pipeline", "Remove a pipeline.")]));
    let mut search = ToolSearch::new(catalog).expect("default settings");
    // CircleCI's tools match `workflow`, but none of them deletes anything.
    let query = "circleci delete the workflow";
    let results = search.search(query, 10);
    let why = results.refusal().expect("refused");
    assert_eq!(why.reason(), Reason::NotOffered);
    assert_eq!(why.not_offered_word(), Some(("circleci", "delete")));
    // The kinds it does are answered: a write, and a read.
    assert_eq!(
        search.search("circleci rerun the workflow", 1).hits()[0].name(),
        "mcp__circleci__rerun_workflow"
    );
    assert_eq!(
        search.search("circleci show the workflow", 1).hits()[0].name(),
        "mcp__circleci__get_workflow"
    );
    // And the deletion is, once a CircleCI tool deletes; as after a fresh build.
    search
        .replace_tools(
            "circleci",
            server(
                "x",
                &[
                    ("rerun_workflow", "Rerun a workflow from its start."),
                    ("get_workflow", "Get the status of a workflow."),
                    ("remove_workflow", "Remove a workflow."),
                ],
            )
            .tools,
        )
        .expect("valid update");
    assert_eq!(search.search(query, 1).hits()[0].name(), "mcp__circleci__remove_workflow");
    let fresh = ToolSearch::new(search.catalog().clone()).expect("default settings");
    assert_eq!(fresh.search(query, 10), search.search(query, 10));
}

/// The request's verb, the first word of its clause, must be said by some tool of the named
/// service (by its forms or its lexicon group), or the service cannot do it.
#[test]
fn a_present_service_whose_tools_never_say_the_verb_says_so() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "discord",
        &[
            ("send_message", "Send a message to a channel of a server."),
            ("delete_message", "Delete a message from a channel."),
        ],
    ));
    catalog.add_server(server("okta", &[("suspend_user", "Suspend a user.")]));
    catalog.add_server(server("feishu", &[("im_message_create", "发送消息到群聊。")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    let why = search.search("suspend the spammer on our discord server", 10);
    let why = why.refusal().expect("refused");
    assert_eq!(why.reason(), Reason::NotOffered);
    assert_eq!(why.not_offered_word(), Some(("discord", "suspend")));
    // Words before the verb that only ask politely are passed over.
    let polite = search.search("please suspend the spammer in discord", 10);
    let why = polite.refusal().expect("refused");
    assert_eq!(why.not_offered_word(), Some(("discord", "suspend")));
    // A verb its tools say, or one of its lexicon group, is offered.
    for query in ["remove the spam message from discord", "post a message on discord"] {
        assert!(!search.search(query, 10).is_empty(), "{query:?}");
    }
    // Tools described in Chinese are not judged by an English verb.
    let results = search.search("send a message to the feishu group chat", 10);
    assert_eq!(
        results.hits().first().map(|h| h.name()),
        Some("mcp__feishu__im_message_create"),
        "{results:?}"
    );
}

/// A server keeps its tools described in Chinese through an update that leaves them as they
/// are (their documents stay, and their texts are not made again).
#[test]
fn an_update_keeps_what_the_kept_tools_are_described_in() {
    let tools = |revised: &str| {
        server("feishu", &[("im_message_create", "发送消息到群聊。"), ("calendar_list", revised)])
            .tools
    };
    let mut catalog = Catalog::new();
    catalog.add_server(server("discord", &[("send_message", "Send a message to a channel.")]));
    catalog.add_server(toolsift::Server::new("feishu", ToolKind::Mcp, tools("List calendars.")));
    let mut search = ToolSearch::new(catalog).expect("default settings");
    search.replace_tools("feishu", tools("List the calendars.")).expect("valid update");
    // Not refused: feishu's tools are not judged by the English verb.
    let query = "send a message to the feishu group chat";
    let results = search.search(query, 10);
    assert!(
        results.hits().iter().any(|h| h.name() == "mcp__feishu__im_message_create"),
        "{results:?}"
    );
    let fresh = ToolSearch::new(search.catalog().clone()).expect("default settings");
    assert_eq!(fresh.search(query, 10), results);
}

/// What the request's verb acts on must be said, in a tool's name or summary, by a tool of the
/// named service that does that kind of action, or by one about what it is for, from or to,
/// or about what it is of when that tool says it anywhere.
#[test]
fn a_present_service_whose_tools_never_do_the_action_on_the_thing_says_so() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "github",
        &[
            (
                "list_releases",
                "List releases in a repository. Those past the retention period are left out.",
            ),
            ("create_pull_request", "Create a new pull request. Its body may hold release notes."),
        ],
    ));
    catalog.add_server(server(
        "datadog",
        &[
            ("mute_host", "Mute a host."),
            ("list_monitors", "List the monitors."),
            ("update_dashboard", "Update a dashboard. Its title, layout and priority can be set."),
        ],
    ));
    let search = ToolSearch::new(catalog).expect("default settings");
    for (query, service, word) in [
        // Releases are only read; the tool that creates mentions them in its details.
        ("create a new GitHub release with changelog notes", "github", "create release"),
        ("mute the datadog monitor for checkout", "datadog", "mute monitor"),
        // A thing of another: the tool about the dashboard says nothing of a retention.
        ("change the retention of the datadog dashboard", "datadog", "change retention"),
    ] {
        let results = search.search(query, 10);
        let why = results.refusal().unwrap_or_else(|| panic!("{query:?} answered"));
        assert_eq!(why.reason(), Reason::NotOffered, "{query:?}: {why}");
        assert_eq!(why.not_offered_word(), Some((service, word)), "{query:?}");
    }
    for (query, first) in [
        ("open a new pull request on github", "create_pull_request"),
        // The thing the alerts are from is what the tool is named for.
        ("mute datadog alerts from host web-03 while we patch it", "mute_host"),
        // A keyword query: the object ends at the next action word.
        ("github create pull request list releases", "create_pull_request"),
        // Reading is left to the kind check.
        ("show the github releases", "list_releases"),
        // A thing of another, said by a tool about that other, in its details.
        ("change the priority of the datadog dashboard", "update_dashboard"),
    ] {
        let results = search.search(query, 10);
        let hit = results.hits().first().unwrap_or_else(|| panic!("{query:?} refused"));
        assert!(hit.name().ends_with(first), "{query:?}: {}", hit.name());
    }
}

/// What a verb that sends carries to a place the service offers is content ("post the release
/// notes to the announcements channel"): no tool is expected to offer it. Without such a
/// place, its words are judged as usual.
#[test]
fn what_is_sent_to_an_offered_place_is_not_judged() {
    let mut catalog = Catalog::new();
    catalog.add_server(server("discord", &[("send_message", "Send a message to a channel.")]));
    catalog.add_server(server("github", &[("list_releases", "List releases of a repository.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    let results =
        search.search("post the v2.3 release notes to the announcements channel on discord", 10);
    assert_eq!(results.hits().first().map(|h| h.name()), Some("mcp__discord__send_message"));
    let results = search.search("post the release notes on discord", 10);
    let why = results.refusal().expect("refused");
    assert_eq!(why.not_offered_word(), Some(("discord", "release")));
}

/// A word for the connection itself (`server`, `tools`) is never the word judged: a service
/// without a tool named for servers is still asked about its own tools.
#[test]
fn words_for_the_connection_are_not_judged() {
    let mut catalog = Catalog::new();
    catalog.add_server(server("motherduck", &[("query", "Run a SQL query on a database.")]));
    catalog.add_server(server("hosting", &[("list_servers", "List the servers of an account.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    let results = search.search("motherduck server capabilities", 10);
    assert_eq!(results.hits().first().map(|h| h.name()), Some("mcp__motherduck__query"));
}

#[test]
fn a_tool_that_takes_its_operation_as_a_parameter_may_do_any_kind() {
    let tools = |operations: &str| {
        format!(
            r#"[
                {{"name": "work_item_link_write", "description": "Write operations for work item links.",
                  "inputSchema": {{"type": "object", "properties": {{"action": {{"type": "string",
                  "enum": [{operations}], "description": "link: link two items; unlink: remove a link."}}}}}}}},
                {{"name": "get_work_item", "description": "Get a work item.",
                  "inputSchema": {{"type": "object"}}}}
            ]"#
        )
    };
    let search = |operations: &str| {
        let mut catalog = Catalog::new();
        catalog.add_server(load_mcp(tools(operations), "jira").expect("valid tools").server);
        ToolSearch::new(catalog).expect("default settings")
    };
    let query = "jira remove a link between work items";
    // Its name and summary say "write"; its `action` parameter says it unlinks too.
    let results = search(r#""link", "unlink""#).search(query, 5);
    assert_eq!(results.hits().first().map(|h| h.name()), Some("mcp__jira__work_item_link_write"));
    // With one allowed value the tool does what its name says, and only its parameter's
    // description says "remove": no tool removes.
    let results = search(r#""link""#).search(query, 5);
    let why = results.refusal().expect("refused");
    assert_eq!(why.not_offered_word(), Some(("jira", "remove")));
}

#[test]
fn a_database_that_runs_queries_answers_questions_about_its_data() {
    let tools = |parameter: &str, description: &str| {
        format!(
            r#"[
                {{"name": "query", "description": "{description}",
                  "inputSchema": {{"type": "object", "properties": {{"{parameter}": {{"type": "string"}}}}}}}},
                {{"name": "list_schemas", "description": "List the schemas.",
                  "inputSchema": {{"type": "object"}}}}
            ]"#
        )
    };
    let server_of = server;
    let search = |parameter: &str, description: &str| {
        let mut catalog = Catalog::new();
        let server = load_mcp(tools(parameter, description), "postgres").expect("valid tools");
        catalog.add_server(server.server);
        // Another server's tools name restoring and users: those are tool words.
        catalog.add_server(server_of(
            "admin",
            &[("restore_snapshot", "Restore a disk snapshot."), ("list_users", "List users.")],
        ));
        ToolSearch::new(catalog).expect("default settings")
    };
    let question = "which users signed up last week in our postgres database";
    // No tool is named for users or weeks, but SQL answers any question about the data: the
    // question is answered, and the query tool is among the hits.
    let sql = search("sql", "Run a read-only SQL query");
    let results = sql.search(question, 5);
    assert!(results.hits().iter().any(|h| h.name() == "mcp__postgres__query"), "{results:?}");
    // A request to do something else is still judged: nothing here restores.
    let why = sql.search("restore the postgres database from last night's backup", 5);
    assert_eq!(why.refusal().and_then(|w| w.not_offered_word()), Some(("postgres", "restore")));
    // A `query` that is a search string, in a tool that names no query language, is not one.
    let plain = search("query", "Search the schemas by name");
    let why = plain.search(question, 5);
    assert_eq!(why.refusal().map(|w| w.reason()), Some(Reason::NotOffered));
}

#[test]
fn a_misspelt_word_can_carry_the_action_asked() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "stripe",
        &[
            ("list_disputes", "List disputes."),
            ("update_dispute", "Update a dispute with evidence and a response."),
        ],
    ));
    catalog.add_server(server("forms", &[("get_response", "Get one form response.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    // `response` is tool vocabulary and only a Stripe tool that writes matches it, while the
    // query reads; the misspelt `disputes` is what a Stripe tool that reads matches.
    let results = search.search("show the stripe dispustes that need a response", 5);
    assert!(results.hits().iter().any(|h| h.name() == "mcp__stripe__list_disputes"), "{results:?}");
    assert!(search.search("show the stripe reports that need a response", 5).is_empty());
}

#[test]
fn the_rule_holds_after_updates() {
    let mut catalog = Catalog::new();
    catalog.add_server(server("circleci", &[("rerun_workflow", "Rerun a workflow.")]));
    catalog.add_server(server("gitlab", &[("cancel_pipeline", "Cancel a pipeline.")]));
    let mut search = ToolSearch::new(catalog).expect("default settings");
    let query = "circleci cancel workflow";
    assert!(search.search(query, 5).is_empty());
    search
        .replace_tools(
            "circleci",
            server(
                "x",
                &[
                    ("rerun_workflow", "Rerun a workflow."),
                    ("cancel_workflow", "Cancel a workflow."),
                ],
            )
            .tools,
        )
        .expect("valid update");
    assert_eq!(search.search(query, 1).hits()[0].name(), "mcp__circleci__cancel_workflow");
    let fresh = ToolSearch::new(search.catalog().clone()).expect("default settings");
    assert_eq!(fresh.search(query, 10), search.search(query, 10));
    // Once no tool name says `cancel`, the word is no longer tool vocabulary to judge by.
    search.remove_server("gitlab").expect("valid update");
    search
        .replace_tools("circleci", server("x", &[("rerun_workflow", "Rerun a workflow.")]).tools)
        .expect("valid update");
    assert!(!search.search(query, 5).is_empty());
}

#[test]
fn exact_tool_names_are_answered() {
    let mut catalog = Catalog::new();
    catalog
        .add_server(server("ci", &[("trigger_jenkins_job", "Trigger a job on the old server.")]));
    catalog.add_server(server("gitlab", &[("cancel_pipeline", "Cancel a pipeline.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    // A service word in a tool's name makes the service present, and a query equal to a tool's
    // name is never refused by the rules (it comes first, past every floor).
    for (query, name) in [
        ("trigger_jenkins_job", "mcp__ci__trigger_jenkins_job"),
        ("trigger jenkins job", "mcp__ci__trigger_jenkins_job"),
        ("gitlab/cancel_pipeline", "mcp__gitlab__cancel_pipeline"),
        ("mcp__gitlab__cancel_pipeline", "mcp__gitlab__cancel_pipeline"),
        // One word in the other number, written as an identifier.
        ("cancelPipelines", "mcp__gitlab__cancel_pipeline"),
        ("trigger_jenkins_jobs", "mcp__ci__trigger_jenkins_job"),
    ] {
        assert_eq!(
            search.search(query, 1).hits().first().map(|h| h.name()),
            Some(name),
            "{query:?}"
        );
    }
}

/// A misspelt service name (a word the index takes for a typo: unknown to the catalog and the
/// lexicon) still names its service, by the alias one edit away with the same first letter;
/// the model is told the alias, not the misspelling.
#[test]
fn misspelt_services_are_recognized() {
    let search = mixed();
    for (query, missing) in [
        ("bitbuket open pull request", "bitbucket"),
        ("acknowledge the pagerdtuy incident", "pagerduty"),
        ("create a task in asanna", "asana"),
    ] {
        assert_eq!(refused(&search, query), Some(vec![missing.to_owned()]), "{query:?}");
    }
    // A present service misspelt answers with its tools, typo-matched.
    let hits = search.search("githb open pull request", 3);
    assert!(hits.hits().iter().any(|h| h.name() == "mcp__github__create_pull_request"), "{hits:?}");
    // A changed first letter, or two edits, is not a service name.
    assert_eq!(refused(&search, "vitbucket open pull request"), None);
    assert_eq!(refused(&search, "bitbukt open pull request"), None);
}

/// A misspelling the catalog knows a word for names a service only if that word is the
/// service: `toggel` is the catalog's `toggle`, not the absent `toggl`; `pagerdtuy` is
/// `pagerduty`, which a description mentions.
#[test]
fn a_typo_of_a_catalog_word_is_that_word_not_a_service() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "flags",
        &[
            ("toggle_flag", "Toggle a feature flag on or off."),
            ("list_flags", "List feature flags. Changes are posted to PagerDuty."),
        ],
    ));
    let search = ToolSearch::new(catalog).expect("default settings");
    let results = search.search("toggel the dark mode feature flag", 1);
    assert_eq!(results.hits().first().map(|h| h.name()), Some("mcp__flags__toggle_flag"));
    let typo = search.search("toggel the dark mode feature flag", 1);
    let why_not = typo.refusal();
    assert!(why_not.is_none(), "{why_not:?}");
    // Written correctly, the time tracker is missing.
    assert_eq!(
        refused(&search, "start a toggl timer for the flag work"),
        Some(vec!["toggl".into()])
    );
    // A misspelling whose catalog word is the service still names it.
    assert_eq!(
        refused(&search, "acknowledge the pagerdtuy incident"),
        Some(vec!["pagerduty".into()])
    );
}

/// A value the user supplies (a name after "called", quoted text, a message after "saying")
/// is not an action the named service must offer.
#[test]
fn values_the_user_supplies_are_not_judged() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "cloudflare",
        &[("r2_create_bucket", "Create a new R2 bucket."), ("r2_list_buckets", "List buckets.")],
    ));
    catalog.add_server(server(
        "github",
        &[
            ("list_release_assets", "List a release's assets."),
            ("create_release", "Create a release."),
            ("create_issue", "Create an issue."),
        ],
    ));
    let search = ToolSearch::new(catalog).expect("default settings");
    for query in [
        "create a new R2 bucket on cloudflare called assets",
        "create a cloudflare bucket named 'assets'",
        "create a cloudflare bucket for the release saying assets go here",
    ] {
        let results = search.search(query, 3);
        assert!(results.refusal().is_none(), "{query:?}: {:?}", results.refusal());
        assert!(
            results.hits().iter().any(|h| h.name() == "mcp__cloudflare__r2_create_bucket"),
            "{query:?}: {:?}",
            results.hits()
        );
    }
    // Asked for, the same word is judged: no cloudflare tool has assets.
    let why = search.search("list the assets on cloudflare", 1).refusal().cloned();
    assert_eq!(why.map(|w| w.reason()), Some(Reason::NotOffered));
}

/// A misspelt present service still gets the not-offered check, under its alias.
#[test]
fn misspelt_present_services_keep_the_not_offered_check() {
    let mut catalog = Catalog::new();
    catalog.add_server(server("circleci", &[("rerun_workflow", "Rerun a workflow.")]));
    catalog.add_server(server("gitlab", &[("cancel_pipeline", "Cancel a running pipeline.")]));
    let search = ToolSearch::new(catalog).expect("default settings");
    let results = search.search("circlecj cancel running workflow", 10);
    let why = results.refusal().expect("refused");
    assert_eq!(why.reason(), Reason::NotOffered);
    assert_eq!(why.not_offered_word(), Some(("circleci", "cancel")));
}

#[test]
fn hits_for_a_missing_service_say_it_is_not_connected() {
    let mut catalog = Catalog::new();
    catalog.add_server(server(
        "ops",
        &[
            ("checkDatabaseStatus", "Check the status of a database."),
            ("listDatabases", "List the databases."),
        ],
    ));
    let search = ToolSearch::new(catalog).expect("index");
    // A generic tool fits first, spelled whole: answered, with the service not connected.
    let query = "check the status of the MySQL database";
    let results = search.search(query, 5);
    assert_eq!(results.hits()[0].name(), "mcp__ops__checkDatabaseStatus");
    assert_eq!(results.missing_services(), ["mysql"]);
    let text = search.render(query, &results, ResultForm::Text).to_string();
    assert_eq!(
        text.lines().last(),
        Some(
            "No connected server provides \"mysql\": the tools above may still do it (taking it \
             as a value); if none does, tell the user \"mysql\" is not connected."
        ),
        "{text}"
    );
    // The JSON forms keep their shape: the host adds the line beside them.
    let json = search.render(query, &results, ResultForm::Json);
    assert!(json.as_json().is_some_and(|v| v.as_array().is_some_and(|a| !a.is_empty())));
    // A request that names no missing service gets plain hits.
    let plain = search.search("check the database status", 5);
    assert!(!plain.is_empty());
    assert!(plain.missing_services().is_empty());
    assert!(!search.render("x", &plain, ResultForm::Text).to_string().contains("No connected"));
    // A refusal keeps the services in its own reason.
    let refused = search.search("rotate the okta api token", 5);
    assert!(refused.missing_services().is_empty());
}
