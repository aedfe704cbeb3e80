//! The `tracing` layer that makes spans OpenTelemetry spans, with the ids a2a-rs carries.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::time::SystemTime;

use opentelemetry::trace::{
    Span as _, SpanBuilder, SpanContext, SpanId, SpanKind, TraceContextExt as _, TraceFlags,
    TraceId, TraceState, Tracer as _,
};
use opentelemetry::{Context, Key, KeyValue, Value};
use opentelemetry_sdk::trace::{IdGenerator, RandomIdGenerator, SdkTracer};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::Context as LayerContext;
use tracing_subscriber::registry::LookupSpan;

thread_local! {
    /// The ids the next span built on this thread takes (set by the layer just before it
    /// builds the span, taken by [`A2aIdGenerator`] while the SDK builds it).
    static NEXT_TRACE: Cell<Option<TraceId>> = const { Cell::new(None) };
    static NEXT_SPAN: Cell<Option<SpanId>> = const { Cell::new(None) };
}

/// The span and trace ids of the SDK's tracer provider: the ids a span's `trace_id` and
/// `span_id` fields name when [`OtelLayer`] builds it, random ones otherwise. A provider that
/// [`OtelLayer`] feeds must be built with it
/// (`SdkTracerProvider::builder().with_id_generator(A2aIdGenerator::default())`): with another
/// generator the spans get ids of their own, and the span ids sent in `traceparent` headers are
/// not those of exported spans. [`crate::Otlp::start`] builds its provider with it.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct A2aIdGenerator {
    random: RandomIdGenerator,
}

impl IdGenerator for A2aIdGenerator {
    fn new_trace_id(&self) -> TraceId {
        NEXT_TRACE
            .take()
            .unwrap_or_else(|| self.random.new_trace_id())
    }

    fn new_span_id(&self) -> SpanId {
        NEXT_SPAN
            .take()
            .unwrap_or_else(|| self.random.new_span_id())
    }
}

/// A `tracing` layer that makes every span (at or above its level, `INFO` by default) an
/// OpenTelemetry span of the tracer it was given, and every event in such a span a span event.
///
/// - A span with a `trace_id` field (32 hex digits) is in that trace, and one with a `span_id`
///   field (16 hex digits) has that span id: a2a-rs's spans (`a2a.request`, `a2a.agent`,
///   `a2a.send`) carry the ids of the W3C `traceparent` headers they read or send, so the
///   exported spans are the ones those headers name.
/// - A span's parent is its `parent_span_id` field when it has one (the caller's span, from
///   the request's `traceparent`: a remote parent unless it is the enclosing span), else the
///   nearest enclosing span the layer exported. A span whose `trace_id` differs from the
///   enclosing span's starts that trace anew (as a root, or under its `parent_span_id`).
/// - Every other field is an attribute of its name (`a2a.method`, `a2a.task_id`,
///   `a2a.context_id`, `a2a.state`, ...); fields recorded later (`a2a.state`) are added when
///   recorded. `a2a.request` spans are of kind server, `a2a.send` spans of kind client, others
///   internal (an `otel.kind` field of `server`, `client`, `producer`, `consumer` or
///   `internal` says otherwise).
///
/// The tracer's provider must use [`A2aIdGenerator`] for the span ids to be the ones the
/// fields name.
#[derive(Clone, Debug)]
pub struct OtelLayer {
    tracer: SdkTracer,
    level: Level,
}

impl OtelLayer {
    /// The layer of `tracer` (whose provider uses [`A2aIdGenerator`]), exporting spans at
    /// `INFO` and above.
    pub fn new(tracer: SdkTracer) -> Self {
        Self {
            tracer,
            level: Level::INFO,
        }
    }

    /// Exports spans and events at `level` and above (more verbose ones are skipped; their
    /// children hang under the nearest exported ancestor).
    #[must_use]
    pub fn with_level(mut self, level: Level) -> Self {
        self.level = level;
        self
    }
}

/// The OpenTelemetry span of a `tracing` span, in its extensions.
struct Exported {
    span: opentelemetry_sdk::trace::Span,
    context: SpanContext,
}

/// A span's fields: its ids, its kind and the rest as attributes.
#[derive(Default)]
struct Fields {
    trace_id: Option<TraceId>,
    span_id: Option<SpanId>,
    parent_span_id: Option<SpanId>,
    kind: Option<SpanKind>,
    attributes: Vec<KeyValue>,
    message: Option<String>,
}

fn trace_id(text: &str) -> Option<TraceId> {
    (text.len() == 32)
        .then(|| TraceId::from_hex(text).ok())
        .flatten()
        .filter(|id| *id != TraceId::INVALID)
}

fn span_id(text: &str) -> Option<SpanId> {
    (text.len() == 16)
        .then(|| SpanId::from_hex(text).ok())
        .flatten()
        .filter(|id| *id != SpanId::INVALID)
}

fn kind(text: &str) -> Option<SpanKind> {
    Some(match text {
        "server" => SpanKind::Server,
        "client" => SpanKind::Client,
        "producer" => SpanKind::Producer,
        "consumer" => SpanKind::Consumer,
        "internal" => SpanKind::Internal,
        _ => return None,
    })
}

impl Fields {
    fn text(&mut self, field: &Field, value: String) {
        match field.name() {
            "trace_id" => self.trace_id = trace_id(&value),
            "span_id" => self.span_id = span_id(&value),
            "parent_span_id" => self.parent_span_id = span_id(&value),
            "otel.kind" => self.kind = kind(&value),
            "message" => self.message = Some(value),
            name => self.attribute(name, Value::from(value)),
        }
    }

    fn attribute(&mut self, name: &'static str, value: Value) {
        self.attributes
            .push(KeyValue::new(Key::from_static_str(name), value));
    }
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.text(field, value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.text(field, format!("{value:?}"));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.attribute(field.name(), Value::I64(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match i64::try_from(value) {
            Ok(value) => self.attribute(field.name(), Value::I64(value)),
            Err(_) => self.text(field, value.to_string()),
        }
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.attribute(field.name(), Value::Bool(value));
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.attribute(field.name(), Value::F64(value));
    }
}

/// The span context of the nearest ancestor of `id` that the layer exported.
fn enclosing<S>(id: &Id, ctx: &LayerContext<'_, S>) -> Option<SpanContext>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    let span = ctx.span(id)?;
    span.scope().skip(1).find_map(|ancestor| {
        ancestor
            .extensions()
            .get::<Exported>()
            .map(|e| e.context.clone())
    })
}

/// The parent of a new span: its own ids first, then the enclosing exported span.
fn parent(fields: &Fields, enclosing: Option<SpanContext>) -> Context {
    let remote = |trace: TraceId, span: SpanId| {
        Context::new().with_remote_span_context(SpanContext::new(
            trace,
            span,
            TraceFlags::SAMPLED,
            true,
            TraceState::default(),
        ))
    };
    let local = |context: SpanContext| Context::new().with_remote_span_context(context);
    match (fields.trace_id, fields.parent_span_id, enclosing) {
        (Some(trace), Some(parent), Some(outer))
            if outer.trace_id() == trace && outer.span_id() == parent =>
        {
            local(outer)
        }
        (Some(trace), Some(parent), _) => remote(trace, parent),
        (Some(trace), None, Some(outer)) if outer.trace_id() == trace => local(outer),
        // A trace of its own (the enclosing span is of another trace, or there is none): a root.
        (Some(_), None, _) => Context::new(),
        (None, _, Some(outer)) => local(outer),
        (None, _, None) => Context::new(),
    }
}

impl<S> tracing_subscriber::Layer<S> for OtelLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: LayerContext<'_, S>) {
        let meta = attrs.metadata();
        if *meta.level() > self.level {
            return;
        }
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        let parent = parent(&fields, enclosing(id, &ctx));
        let kind = fields.kind.clone().unwrap_or(match meta.name() {
            "a2a.request" => SpanKind::Server,
            "a2a.send" => SpanKind::Client,
            _ => SpanKind::Internal,
        });
        let builder = SpanBuilder::from_name(Cow::Borrowed(meta.name()))
            .with_kind(kind)
            .with_start_time(SystemTime::now())
            .with_attributes(std::mem::take(&mut fields.attributes));
        NEXT_TRACE.set(fields.trace_id);
        NEXT_SPAN.set(fields.span_id);
        let span = self.tracer.build_with_context(builder, &parent);
        // Not taken when the trace comes from the parent (or the provider has another
        // generator): the next span must not take them.
        NEXT_TRACE.set(None);
        NEXT_SPAN.set(None);
        let context = span.span_context().clone();
        if let Some(entry) = ctx.span(id) {
            entry.extensions_mut().insert(Exported { span, context });
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: LayerContext<'_, S>) {
        let Some(entry) = ctx.span(id) else {
            return;
        };
        let mut extensions = entry.extensions_mut();
        let Some(exported) = extensions.get_mut::<Exported>() else {
            return;
        };
        let mut fields = Fields::default();
        values.record(&mut fields);
        exported.span.set_attributes(fields.attributes);
    }

    fn on_event(&self, event: &Event<'_>, ctx: LayerContext<'_, S>) {
        let meta = event.metadata();
        if *meta.level() > self.level {
            return;
        }
        let Some(scope) = ctx.event_scope(event) else {
            return;
        };
        for entry in scope {
            let mut extensions = entry.extensions_mut();
            if let Some(exported) = extensions.get_mut::<Exported>() {
                let mut fields = Fields::default();
                event.record(&mut fields);
                let mut attributes = fields.attributes;
                attributes.push(KeyValue::new("level", meta.level().as_str()));
                attributes.push(KeyValue::new("target", meta.target()));
                let name = fields.message.unwrap_or_else(|| meta.name().to_owned());
                exported.span.add_event(name, attributes);
                return;
            }
        }
    }

    fn on_close(&self, id: Id, ctx: LayerContext<'_, S>) {
        let Some(entry) = ctx.span(&id) else {
            return;
        };
        let exported = entry.extensions_mut().remove::<Exported>();
        if let Some(mut exported) = exported {
            exported.span.end();
        }
    }
}
