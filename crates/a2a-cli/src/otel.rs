//! `a2a serve --otlp-endpoint URL`: OTLP export of the server's spans (a2a-otel, the
//! `opentelemetry` feature; docs/tracing.md).

use crate::diag::Diag;
use crate::error::CliError;

/// The OpenTelemetry options of `a2a serve`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct OtelArgs {
    /// Export the server's spans (a2a.request, a2a.call, a2a.agent, and a2a.send of the calls
    /// its agent makes) over OTLP/HTTP to this collector, e.g. http://127.0.0.1:4318 (posted
    /// to its /v1/traces), in the traces of the callers' traceparent headers; flushed when the
    /// server stops (docs/tracing.md).
    #[arg(
        long = "otlp-endpoint",
        env = "OTEL_EXPORTER_OTLP_ENDPOINT",
        value_name = "URL"
    )]
    endpoint: Option<String>,
    /// The service.name of the exported spans.
    #[arg(
        long = "otlp-service-name",
        env = "OTEL_SERVICE_NAME",
        value_name = "NAME",
        default_value = "a2a-serve"
    )]
    service_name: String,
}

/// The running export, stopped by [`finish`].
#[cfg(feature = "opentelemetry")]
pub(crate) type Export = a2a_otel::Otlp;
/// No export without the `opentelemetry` feature.
#[cfg(not(feature = "opentelemetry"))]
pub(crate) type Export = ();

impl OtelArgs {
    /// Starts the export when an endpoint is given; [`layer`] is its `tracing` layer, for the
    /// global subscriber. Inside the Tokio runtime.
    pub(crate) fn start(&self, diag: &Diag) -> Result<Option<Export>, CliError> {
        let Some(endpoint) = self.endpoint.as_deref().map(str::trim) else {
            return Ok(None);
        };
        if endpoint.is_empty() {
            return Ok(None);
        }
        start(endpoint, &self.service_name, diag)
    }
}

#[cfg(feature = "opentelemetry")]
fn start(endpoint: &str, service_name: &str, _diag: &Diag) -> Result<Option<Export>, CliError> {
    let config = a2a_otel::OtlpConfig::new(endpoint, service_name);
    let otlp = a2a_otel::Otlp::start(&config)
        .map_err(|err| CliError::usage(format!("--otlp-endpoint: {err}")))?;
    Ok(Some(otlp))
}

/// The layer that exports spans, for the global subscriber ([`crate::request_log::install`]).
#[cfg(feature = "opentelemetry")]
pub(crate) fn layer(export: Option<&Export>) -> Option<crate::request_log::Extra> {
    export.map(|otlp| Box::new(otlp.layer()) as crate::request_log::Extra)
}

/// No layer without the `opentelemetry` feature.
#[cfg(not(feature = "opentelemetry"))]
pub(crate) fn layer(_export: Option<&Export>) -> Option<crate::request_log::Extra> {
    None
}

#[cfg(not(feature = "opentelemetry"))]
fn start(_endpoint: &str, _service_name: &str, diag: &Diag) -> Result<Option<Export>, CliError> {
    diag.warn(
        "--otlp-endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT) is ignored: this a2a was built \
         without the `opentelemetry` feature",
    );
    Ok(None)
}

/// Exports the spans left and stops the export; a failure is a warning (the server has
/// stopped already).
#[cfg(feature = "opentelemetry")]
pub(crate) async fn finish(export: Option<Export>, diag: &Diag) {
    if let Some(otlp) = export
        && let Err(err) = otlp.shutdown().await
    {
        diag.warn(&format!("the last OTLP export failed: {err}"));
    }
}

/// Nothing to stop without the `opentelemetry` feature.
#[cfg(not(feature = "opentelemetry"))]
pub(crate) async fn finish(_export: Option<Export>, _diag: &Diag) {}
