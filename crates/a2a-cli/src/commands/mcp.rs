//! `a2a mcp REF...`: the tools of agents (one per skill) served to MCP clients, over stdio or
//! streamable HTTP with `--http ADDR`; each call is a message to its agent.

use std::sync::Arc;
use std::time::Duration;

use a2a_client::tools::{CallOptions, ToolRegistry};
use clap::Args;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, InitializeResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt as _};
use tokio::sync::Mutex;

use crate::diag::Diag;
use crate::error::{CliError, Code};
use crate::options::{Common, parse_duration, parse_size};
use crate::output::Out;
use crate::registry::{references, registry};

/// The arguments of `a2a mcp`.
#[derive(Args, Debug, Clone)]
pub(crate) struct McpArgs {
    /// The agents: hosts, card URLs or card files, as -a takes them (and -a itself, if given).
    #[arg(value_name = "REF")]
    pub(crate) agents: Vec<String>,
    /// Serve MCP's streamable HTTP transport on this address (at any path, e.g.
    /// http://ADDR/mcp) instead of stdio; port 0 picks a free port.
    #[arg(long, value_name = "ADDR")]
    pub(crate) http: Option<String>,
    /// A host name the HTTP transport accepts in `Host` besides the loopback ones
    /// (repeatable; DNS-rebinding guard).
    #[arg(long = "allow-host", value_name = "HOST")]
    pub(crate) allow_hosts: Vec<String>,
    /// Check the agents' cards again (If-None-Match with their ETag) when a client lists the
    /// tools and the last check is older than this.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    pub(crate) refresh: Duration,
    /// The most text and data one tool result keeps; the rest is cut, and the result says so.
    #[arg(long = "max-result", value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    pub(crate) max_result: usize,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The MCP server: the registry's tools, their calls.
#[derive(Clone)]
struct Bridge {
    registry: ToolRegistry,
    refresh: Duration,
    /// One refresh at a time.
    refreshing: Arc<Mutex<()>>,
    diag: Diag,
}

impl Bridge {
    async fn refresh_if_stale(&self) {
        let _one = self.refreshing.lock().await;
        if self
            .registry
            .oldest_check()
            .is_some_and(|age| age >= self.refresh)
        {
            for (url, outcome) in self
                .registry
                .agents()
                .into_iter()
                .zip(self.registry.refresh().await)
            {
                match outcome {
                    Ok(refreshed) => self
                        .diag
                        .debug(&format!("the card of {url}: {refreshed:?}")),
                    Err(error) => self.diag.warn(&format!(
                        "cannot check the card of {url} again (its tools stay): {error}"
                    )),
                }
            }
        }
    }

    fn tools(&self) -> Result<Vec<Tool>, ErrorData> {
        self.registry
            .descriptors()
            .iter()
            .map(|d| {
                serde_json::from_value(d.to_mcp())
                    .map_err(|e| ErrorData::internal_error(format!("tool {}: {e}", d.name), None))
            })
            .collect()
    }
}

impl ServerHandler for Bridge {
    fn get_info(&self) -> InitializeResult {
        let agents: Vec<String> = self.registry.cards().into_iter().map(|c| c.name).collect();
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("a2a-mcp", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "The skills of the A2A agents {} as tools. A tool result that asks for more \
                 input names a taskId: call the same tool again with it and your answer.",
                agents.join(", ")
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.refresh_if_stale().await;
        Ok(ListToolsResult::with_all_items(self.tools()?))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let result = match self
            .registry
            .call_until(&request.name, &arguments, context.ct.cancelled())
            .await
        {
            Ok(result) => result,
            Err(a2a_client::tools::ToolError::UnknownTool(name)) => {
                return Err(ErrorData::invalid_params(
                    format!("no tool is named `{name}`"),
                    None,
                ));
            }
            Err(error) => error.into_result(),
        };
        let result: CallToolResult = serde_json::from_value(result.to_mcp())
            .map_err(|e| ErrorData::internal_error(format!("the tool result: {e}"), None))?;
        Ok(CallToolResponse::Complete(result))
    }
}

/// Runs `a2a mcp`: serves the tools over stdio until the client leaves, or over HTTP until
/// interrupted.
pub(crate) async fn run(args: &McpArgs, diag: &Diag) -> Result<(), CliError> {
    let refs = references(&args.agents, &args.common)?;
    let options = CallOptions::default()
        .with_timeout(Some(args.common.timeout))
        .with_max_result_bytes(args.max_result);
    let registry = registry(&refs, &args.common, diag, options).await?;
    let bridge = Bridge {
        registry,
        refresh: args.refresh,
        refreshing: Arc::default(),
        diag: diag.clone(),
    };
    let failed = |what: &str, err: &dyn std::fmt::Display| {
        CliError::new(Code::Internal, format!("{what}: {err}"))
    };
    match &args.http {
        None => {
            let running = bridge
                .serve(rmcp::transport::stdio())
                .await
                .map_err(|e| failed("the MCP session did not start", &e))?;
            running
                .waiting()
                .await
                .map_err(|e| failed("the MCP session failed", &e))?;
        }
        Some(addr) => serve_http(bridge, addr, &args.allow_hosts).await?,
    }
    Ok(())
}

async fn serve_http(bridge: Bridge, addr: &str, allow_hosts: &[String]) -> Result<(), CliError> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let (listener, at) = crate::serving::listen("--http", addr, false).await?;
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    hosts.extend(allow_hosts.iter().cloned());
    // Stateless: no session outlives its request, so a client cannot make the server hold
    // sessions; a request is bounded by the accept loop's connection limits and timeouts.
    let mut config = StreamableHttpServerConfig::default().with_allowed_hosts(hosts);
    config.legacy_session_mode = false;
    config.json_response = true;
    let service = StreamableHttpService::new(
        move || Ok(bridge.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mut printer = Out::new(crate::options::Format::Text, false, false);
    printer.raw_line(&format!("serving MCP at {at}/mcp; Ctrl-C stops"));
    a2a_server::serve_with_shutdown(
        listener,
        service,
        crate::serving::shutdown_signal(),
        a2a_server::ServeConfig::default(),
    )
    .await
    .map_err(|err| CliError::new(Code::Internal, format!("the server failed: {err}")))
}
