/**
 * Generated from the server's OpenAPI document by `npm run gen:api-types` (openapi-typescript).
 * Do not edit: change the route descriptions in server/src/openapi/ and run it again.
 */
export interface paths {
    "/demo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Redirect to /demo/ */
        get: operations["getDemo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/demo/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The demo page (when the server was seeded with the demo) */
        get: operations["getDemoIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/demo/docs/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A demo knowledge file */
        get: operations["getDemoDocsName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/js/widget.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The embeddable widget script */
        get: operations["getJsWidgetJs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (text exposition format 0.0.4) to `Authorization: Bearer <METRICS_TOKEN>` (not an API key); 401 without it, 404 while METRICS_TOKEN is unset (docs/api-spec.md §12, docs/operations.md) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: 200 {"status":"ready"} once the database answers and the retrieval index is built; 503 {"status":"starting"} before (docs/api-spec.md §11) */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Conversations matching the filters */
        get: operations["getAnalyticsConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/conversations/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the matching conversations' messages (streamed file) */
        get: operations["getAnalyticsConversationsExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/conversations/export-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A one-time download link for the conversations export
         * @description Takes the format and the filters of GET /v1/analytics/conversations (as strings, like the query). The link is single use, valid 60 s, bound to the organization, the caller (user or key) and these filters; its token is the credential: the browser can follow it with no cookie or header and stream the file to disk.
         */
        post: operations["postAnalyticsConversationsExportLinks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/knowledge-gaps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Unanswered questions, most frequent first */
        get: operations["getAnalyticsKnowledgeGaps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/knowledge-gaps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A knowledge gap with its questions and the closest passages now */
        get: operations["getAnalyticsKnowledgeGapsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/knowledge-gaps/{id}/dismiss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Hide a gap with a reason */
        post: operations["postAnalyticsKnowledgeGapsIdDismiss"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/knowledge-gaps/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a gap (template or snippet) and replay its questions
         * @description Stores the answer as exact templates for each distinct wording (needs assistants:write) or as a snippet document (needs knowledge_bases:write), then replays up to 20 wordings through the real answer path without writing conversations. The gap becomes resolved and leaves the list.
         */
        post: operations["postAnalyticsKnowledgeGapsIdResolve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Totals, response times, satisfaction and coverage */
        get: operations["getAnalyticsMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Source use: never cited, most cited, cited in answers rated down */
        get: operations["getAnalyticsSources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One metric over time, per hour or day
         * @description Buckets are whole UTC hours or days (`from` rounds down; default range: 30 days by day, 7 days by hour, ending now), empty ones 0 (null for ratios and percentiles), in time order; at most 2,200 buckets (400 beyond). `channel` is a comma list of widget, api, discord, slack, teams, playground (default: all but playground). Read from per-hour rollups kept in the write transaction; response-time percentiles come from a log histogram (buckets ×1.1) and are within ±5 %.
         */
        get: operations["getAnalyticsTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (never the key itself) */
        get: operations["getApiKeys"];
        put?: never;
        /** Create an API key (the key is returned once) */
        post: operations["postApiKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an API key */
        get: operations["getApiKeysId"];
        put?: never;
        post?: never;
        /** Revoke an API key at once */
        delete: operations["deleteApiKeysId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate: a new key; the old one works for graceSeconds */
        post: operations["postApiKeysIdRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List assistants (alias of /v1/assistants) */
        get: operations["getApps"];
        put?: never;
        /** Create an assistant (alias of /v1/assistants) */
        post: operations["postApps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an assistant (alias of /v1/assistants) */
        get: operations["getAppsId"];
        put?: never;
        post?: never;
        /** Delete an assistant (alias of /v1/assistants) */
        delete: operations["deleteAppsId"];
        options?: never;
        head?: never;
        /** Update an assistant (JSON Merge Patch: objects merge deeply, arrays replace, null clears a setting to its default) (alias of /v1/assistants) */
        patch: operations["patchAppsId"];
        trace?: never;
    };
    "/v1/apps/{id}/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload an avatar image (PNG, JPEG, WebP, GIF by content; ≤ 1 MiB; no SVG): sets avatarUrl */
        post: operations["postAppsIdAvatar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{id}/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Chat with an assistant (enveloped) */
        post: operations["postAppsIdChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{id}/templates/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Which response template fires for a message (saved templates, or the ones given) */
        post: operations["postAppsIdTemplatesTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{id}/texts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interface texts in the assistant's language (what the connectors print themselves: errors, the sources heading, hints) */
        get: operations["getAppsIdTexts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An uploaded image (public, immutable, nosniff) */
        get: operations["getAssetsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List assistants */
        get: operations["getAssistants"];
        put?: never;
        /** Create an assistant */
        post: operations["postAssistants"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an assistant */
        get: operations["getAssistantsId"];
        put?: never;
        post?: never;
        /** Delete an assistant */
        delete: operations["deleteAssistantsId"];
        options?: never;
        head?: never;
        /** Update an assistant (JSON Merge Patch: objects merge deeply, arrays replace, null clears a setting to its default) */
        patch: operations["patchAssistantsId"];
        trace?: never;
    };
    "/v1/assistants/{id}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An assistant's change log, newest first */
        get: operations["getAssistantsIdAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants/{id}/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload an avatar image (PNG, JPEG, WebP, GIF by content; ≤ 1 MiB; no SVG): sets avatarUrl */
        post: operations["postAssistantsIdAvatar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants/{id}/templates/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Which response template fires for a message (saved templates, or the ones given) */
        post: operations["postAssistantsIdTemplatesTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants/{id}/texts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interface texts in the assistant's language (what the connectors print themselves: errors, the sources heading, hints) */
        get: operations["getAssistantsIdTexts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Assistant changes across the organization, newest first */
        get: operations["getAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in: a user session token (30 days) */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the presented user session token */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the credential acts as: user, organization with limits, role, permissions */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the signed-in user (user sessions only) */
        patch: operations["patchAuthMe"];
        trace?: never;
    };
    "/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password; the user's other sessions are revoked, this one kept */
        post: operations["postAuthPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a user and a new organization */
        post: operations["postAuthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A session in another organization the user belongs to (cookie from the dashboard, else a token) */
        post: operations["postAuthSwitch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A conversation for the dashboard: every turn with sources, confidence, rating */
        get: operations["getConversationsSessionId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{sessionId}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a conversation */
        post: operations["postConversationsSessionIdEnd"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{sessionId}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rate an assistant message */
        post: operations["postConversationsSessionIdFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{sessionId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages, oldest first (bare array) */
        get: operations["getConversationsSessionIdMessages"];
        put?: never;
        /** Reply as a human agent (handoff) */
        post: operations["postConversationsSessionIdMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/corrections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Correct an answer: save it as a template and/or a knowledge snippet
         * @description The template is triggered by the question before the corrected message (exact or contains; needs assistants:write); the snippet is a document in the given knowledge base (needs knowledge_bases:write). The correction is linked to the conversation and shows in its detail.
         */
        post: operations["postCorrections"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exports/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export by its one-time link (public: the token is the credential)
         * @description Streams every message of the link's conversations as an attachment (CSV or JSONL, as GET /v1/analytics/conversations/export). Used, expired (60 s), unknown, or the creator no longer a member / the key revoked: 404.
         */
        get: operations["getExportsToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/handoffs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The "needs a human" queue, the longest waiting first
         * @description Conversations whose user asked for a human, still active, with no human-agent reply since the request, ordered by when the user asked (handoffRequestedAt, oldest first). Each item carries what the user left with the request (the widget form: email, note). Takes the analytics filters.
         */
        get: operations["getHandoffs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/handoffs/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many conversations wait for a human */
        get: operations["getHandoffsCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List assistants (alias of /v1/assistants) */
        get: operations["getIntegrations"];
        put?: never;
        /** Create an assistant (alias of /v1/assistants) */
        post: operations["postIntegrations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an assistant (alias of /v1/assistants) */
        get: operations["getIntegrationsId"];
        put?: never;
        post?: never;
        /** Delete an assistant (alias of /v1/assistants) */
        delete: operations["deleteIntegrationsId"];
        options?: never;
        head?: never;
        /** Update an assistant (JSON Merge Patch: objects merge deeply, arrays replace, null clears a setting to its default) (alias of /v1/assistants) */
        patch: operations["patchIntegrationsId"];
        trace?: never;
    };
    "/v1/integrations/{id}/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload an avatar image (PNG, JPEG, WebP, GIF by content; ≤ 1 MiB; no SVG): sets avatarUrl */
        post: operations["postIntegrationsIdAvatar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{id}/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat with an assistant (bare body, form 1 errors)
         * @description SSE instead of JSON with `"stream": true` or `Accept: text/event-stream`.
         */
        post: operations["postIntegrationsIdChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{id}/conversations/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A conversation with its messages */
        get: operations["getIntegrationsIdConversationsSessionId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{id}/templates/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Which response template fires for a message (saved templates, or the ones given) */
        post: operations["postIntegrationsIdTemplatesTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{id}/texts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interface texts in the assistant's language (what the connectors print themselves: errors, the sources heading, hints) */
        get: operations["getIntegrationsIdTexts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What an invitation link offers (public; 404 once used, revoked or expired) */
        get: operations["getInvitationsToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation as a new user (201) or an existing one with its password (200); a session in that organization */
        post: operations["postInvitationsTokenAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List knowledge bases */
        get: operations["getKnowledgeBases"];
        put?: never;
        /** Create a knowledge base */
        post: operations["postKnowledgeBases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a knowledge base */
        get: operations["getKnowledgeBasesId"];
        put?: never;
        post?: never;
        /** Delete a knowledge base and its documents */
        delete: operations["deleteKnowledgeBasesId"];
        options?: never;
        head?: never;
        /** Rename or describe a knowledge base */
        patch: operations["patchKnowledgeBasesId"];
        trace?: never;
    };
    "/v1/knowledge-bases/{id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List documents */
        get: operations["getKnowledgeBasesIdDocuments"];
        put?: never;
        /** Add a document: JSON content, a URL to fetch or crawl, or a file */
        post: operations["postKnowledgeBasesIdDocuments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{id}/documents/{docId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a document */
        get: operations["getKnowledgeBasesIdDocumentsDocId"];
        put?: never;
        post?: never;
        /** Delete a document */
        delete: operations["deleteKnowledgeBasesIdDocumentsDocId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{id}/documents/{docId}/chunks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document's chunks in reading order */
        get: operations["getKnowledgeBasesIdDocumentsDocIdChunks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{id}/documents/{docId}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch a URL document again */
        post: operations["postKnowledgeBasesIdDocumentsDocIdSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{id}/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search a knowledge base, best first */
        post: operations["postKnowledgeBasesIdSearch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This API as an OpenAPI 3.1 document */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organizations the caller belongs to */
        get: operations["getOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the organization or change its plan */
        patch: operations["patchOrganizationsId"];
        trace?: never;
    };
    "/v1/organizations/{id}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Member removals, newest first: who removed whom, and what became of what they created (admin+) */
        get: operations["getOrganizationsIdAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pending invitations (never the token) */
        get: operations["getOrganizationsIdInvitations"];
        put?: never;
        /** Invite by link: a single-use token, shown once, valid 7 days */
        post: operations["postOrganizationsIdInvitations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation */
        delete: operations["deleteOrganizationsIdInvitationsInvitationId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List members, oldest first (keys: organizations:write) */
        get: operations["getOrganizationsIdMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member, or leave; their sessions end, their pending invitations are revoked, and their keys revoked and webhooks disabled (created=revoke, the default) or both transferred to you (created=transfer, recorded in the audit log) */
        delete: operations["deleteOrganizationsIdMembersUserId"];
        options?: never;
        head?: never;
        /** Change a member's role (admin+; admins only by the owner) */
        patch: operations["patchOrganizationsIdMembersUserId"];
        trace?: never;
    };
    "/v1/organizations/{id}/members/{userId}/created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a member created here (live keys, webhooks, pending invitations): what removing them settles (admin+) */
        get: operations["getOrganizationsIdMembersUserIdCreated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer ownership (the owner's session only): the old owner becomes admin */
        post: operations["postOrganizationsIdTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Answer providers and whether this server can use them (has a key or needs none) */
        get: operations["getProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List endpoints */
        get: operations["getWebhooks"];
        put?: never;
        /** Create an endpoint (the signing secret is returned) */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an endpoint */
        get: operations["getWebhooksId"];
        put?: never;
        post?: never;
        /** Delete an endpoint */
        delete: operations["deleteWebhooksId"];
        options?: never;
        head?: never;
        /** Update an endpoint */
        patch: operations["patchWebhooksId"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery attempts, newest first */
        get: operations["getWebhooksIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery's event again now, same webhook-id (deliveryId dlv_… or the log item id att_…) */
        post: operations["postWebhooksIdDeliveriesDeliveryIdRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.test event */
        post: operations["postWebhooksIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/widget/{appId}/{rest}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight
         * @description No bearer token: the `Origin` header must be one of the assistant's widget.allowedOrigins (or PUBLIC_URL's origin); CORS headers only for allowed origins.
         */
        options: operations["optionsWidgetAppIdRest"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/widget/{appId}/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat from the widget
         * @description No bearer token: the `Origin` header must be one of the assistant's widget.allowedOrigins (or PUBLIC_URL's origin); CORS headers only for allowed origins.
         */
        post: operations["postWidgetAppIdChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/widget/{appId}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Widget appearance and behaviour
         * @description No bearer token: the `Origin` header must be one of the assistant's widget.allowedOrigins (or PUBLIC_URL's origin); CORS headers only for allowed origins.
         */
        get: operations["getWidgetAppIdConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/widget/{appId}/conversations/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation the widget started
         * @description No bearer token: the `Origin` header must be one of the assistant's widget.allowedOrigins (or PUBLIC_URL's origin); CORS headers only for allowed origins.
         */
        get: operations["getWidgetAppIdConversationsSessionId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/widget/{appId}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rate an answer
         * @description No bearer token: the `Origin` header must be one of the assistant's widget.allowedOrigins (or PUBLIC_URL's origin); CORS headers only for allowed origins.
         */
        post: operations["postWidgetAppIdFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/widget/{appId}/handoff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a human
         * @description No bearer token: the `Origin` header must be one of the assistant's widget.allowedOrigins (or PUBLIC_URL's origin); CORS headers only for allowed origins.
         */
        post: operations["postWidgetAppIdHandoff"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /** @enum {unknown} */
                code: "validation_error" | "authentication_error" | "permission_denied" | "resource_not_found" | "conflict" | "payload_too_large" | "rate_limit_exceeded" | "server_error" | "unavailable";
                message: string;
            };
            /** @constant */
            status: "error";
        };
        /** @description The seed's "form 1" errors (POST /v1/integrations/{id}/chat) */
        ErrorForm1: {
            error: {
                /** @enum {unknown} */
                code: "INVALID_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "PAYLOAD_TOO_LARGE" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE";
                message: string;
            };
        };
        Pagination: {
            limit: number;
            page: number;
            pages: number;
            total: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getDemo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Moved Permanently */
            301: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDemoIndex: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDemoDocsName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown; charset=utf-8": string;
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJsWidgetJs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript; charset=utf-8": string;
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4; charset=utf-8": string;
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsConversations: {
        parameters: {
            query?: {
                assistantId?: string;
                channel?: string;
                fellBack?: "true" | "false";
                from?: string;
                handoff?: "true" | "false" | "pending";
                /** @description Items per page, 1..100 */
                limit?: number;
                order?: "asc" | "desc";
                /** @description Page number, from 1 */
                page?: number;
                q?: string;
                rating?: "up" | "down";
                sort?: "startedAt" | "lastMessageAt" | "messageCount";
                source?: string;
                to?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            assistantId: string;
                            avgResponseMs: number | null;
                            lastMessageAt: string;
                            messageCount: number;
                            rating: unknown;
                            sessionId: string;
                            source: string | null;
                            startedAt: string;
                            userId: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsConversationsExport: {
        parameters: {
            query?: {
                assistantId?: string;
                channel?: string;
                fellBack?: "true" | "false";
                format?: "csv" | "jsonl";
                from?: string;
                handoff?: "true" | "false" | "pending";
                order?: "asc" | "desc";
                q?: string;
                rating?: "up" | "down";
                sort?: "startedAt" | "lastMessageAt" | "messageCount";
                source?: string;
                to?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson; charset=utf-8": string;
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAnalyticsConversationsExportLinks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "format": "csv",
                 *       "from": "2026-01-01",
                 *       "to": "2026-01-31",
                 *       "channel": "widget,slack",
                 *       "rating": "down"
                 *     }
                 */
                "application/json": {
                    assistantId?: string;
                    channel?: string;
                    /** @enum {string} */
                    fellBack?: "true" | "false";
                    /** @enum {string} */
                    format: "csv" | "jsonl";
                    from?: string;
                    /** @enum {string} */
                    handoff?: "true" | "false" | "pending";
                    /** @enum {string} */
                    order?: "asc" | "desc";
                    q?: string;
                    /** @enum {string} */
                    rating?: "up" | "down";
                    /** @enum {string} */
                    sort?: "startedAt" | "lastMessageAt" | "messageCount";
                    source?: string;
                    to?: string;
                    userId?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            expiresAt: string;
                            /** @description PUBLIC_URL/v1/exports/<token> */
                            url: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsKnowledgeGaps: {
        parameters: {
            query?: {
                assistantId?: string;
                channel?: string;
                fellBack?: "true" | "false";
                from?: string;
                handoff?: "true" | "false" | "pending";
                /** @description Items per page, 1..100 */
                limit?: number;
                order?: "asc" | "desc";
                /** @description Page number, from 1 */
                page?: number;
                q?: string;
                rating?: "up" | "down";
                sort?: "startedAt" | "lastMessageAt" | "messageCount";
                source?: string;
                to?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            assistantId: string;
                            bestConfidence: number | null;
                            count: number;
                            lastAskedAt: string;
                            question: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsKnowledgeGapsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string;
                            bestConfidence: number;
                            /** @enum {string} */
                            cause: "no_passages" | "low_confidence" | "declined" | "rated_down";
                            count: number;
                            firstAskedAt: string;
                            id: string;
                            lastAskedAt: string;
                            passages: {
                                chunkId: number;
                                documentId: string;
                                heading: string | null;
                                score: number;
                                text: string;
                                title: string;
                                url: string | null;
                            }[];
                            question: string;
                            questions: {
                                askedAt: string;
                                /** @enum {string} */
                                cause: "no_passages" | "low_confidence" | "declined" | "rated_down";
                                confidence: number | null;
                                messageId: string | null;
                                question: string;
                                response: string | null;
                                sessionId: string | null;
                            }[];
                            resolution: unknown;
                            /** @enum {string} */
                            status: "open" | "resolved" | "dismissed";
                            statusAt: string | null;
                            statusReason: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAnalyticsKnowledgeGapsIdDismiss: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "Off topic"
                 *     }
                 */
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string;
                            bestConfidence: number;
                            /** @enum {string} */
                            cause: "no_passages" | "low_confidence" | "declined" | "rated_down";
                            count: number;
                            firstAskedAt: string;
                            id: string;
                            lastAskedAt: string;
                            question: string;
                            /** @enum {string} */
                            status: "open" | "resolved" | "dismissed";
                            statusAt: string | null;
                            statusReason: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAnalyticsKnowledgeGapsIdResolve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "answer": "We sell e-gift cards from 10 to 200 euros.",
                 *       "as": "template"
                 *     }
                 */
                "application/json": {
                    answer: string;
                    /** @enum {string} */
                    as: "template" | "snippet";
                    knowledgeBaseId?: string;
                    /** @enum {string} */
                    match?: "exact" | "contains";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            after: {
                                confidence: number | null;
                                fallback: boolean;
                                question: string;
                                response: string | null;
                            }[];
                            /** @enum {string} */
                            as: "template" | "snippet";
                            before: {
                                confidence: number | null;
                                question: string;
                                response: string | null;
                            }[];
                            documentId?: string;
                            id: string;
                            knowledgeBaseId?: string;
                            /** @constant */
                            status: "resolved";
                            templateIds?: string[];
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsMetrics: {
        parameters: {
            query?: {
                assistantId?: string;
                channel?: string;
                fellBack?: "true" | "false";
                from?: string;
                handoff?: "true" | "false" | "pending";
                order?: "asc" | "desc";
                q?: string;
                rating?: "up" | "down";
                sort?: "startedAt" | "lastMessageAt" | "messageCount";
                source?: string;
                to?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            avgConversationLength: number;
                            avgResponseMs: number | null;
                            knowledgeBaseCoverage: number | null;
                            p95ResponseMs: number | null;
                            satisfaction: {
                                down: number;
                                rate: number | null;
                                up: number;
                            };
                            totalConversations: number;
                            totalMessages: number;
                            unansweredCount: number;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsSources: {
        parameters: {
            query?: {
                assistantId?: string;
                channel?: string;
                fellBack?: "true" | "false";
                from?: string;
                handoff?: "true" | "false" | "pending";
                order?: "asc" | "desc";
                q?: string;
                rating?: "up" | "down";
                sort?: "startedAt" | "lastMessageAt" | "messageCount";
                source?: string;
                to?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            citedInDownrated: {
                                count: number;
                                doc: {
                                    id: string;
                                    knowledgeBaseId: string;
                                    title: string;
                                    url: string | null;
                                };
                            }[];
                            mostCited: {
                                count: number;
                                doc: {
                                    id: string;
                                    knowledgeBaseId: string;
                                    title: string;
                                    url: string | null;
                                };
                            }[];
                            neverRetrieved: {
                                id: string;
                                knowledgeBaseId: string;
                                title: string;
                                url: string | null;
                            }[];
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsTimeseries: {
        parameters: {
            query: {
                assistantId?: string;
                channel?: string;
                from?: string;
                interval?: "hour" | "day";
                metric: "conversations" | "messages" | "satisfaction" | "coverage" | "response_ms_p50" | "response_ms_p95" | "handoffs" | "unanswered";
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description ISO start of the UTC hour or day */
                            t: string;
                            /** @description 0 for empty count buckets, null for empty ratio/percentile buckets */
                            value: number | null;
                        }[];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKeys: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            allowedIps: string[];
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            expiresAt: string | null;
                            id: string;
                            last4: string;
                            lastUsedAt: string | null;
                            name: string;
                            permissions: string[];
                            rateLimit: {
                                perDay: number | null;
                                perMinute: number | null;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "CI",
                 *       "permissions": [
                 *         "chat",
                 *         "assistants:read"
                 *       ],
                 *       "allowedIps": [
                 *         "10.0.0.0/8"
                 *       ],
                 *       "rateLimit": {
                 *         "perMinute": 30
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @default [] */
                    allowedIps?: string[];
                    assistantId?: string | null;
                    expiresAt?: string | null;
                    name: string;
                    permissions: ("chat" | "conversations:read" | "conversations:write" | "analytics:read" | "assistants:read" | "assistants:write" | "knowledge_bases:read" | "knowledge_bases:write" | "api_keys:write" | "webhooks:write" | "organizations:write")[];
                    /** @default {} */
                    rateLimit?: {
                        perDay?: number | null;
                        perMinute?: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            allowedIps: string[];
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            expiresAt: string | null;
                            id: string;
                            /** @description The full key: shown once */
                            key: string;
                            last4: string;
                            lastUsedAt: string | null;
                            name: string;
                            permissions: string[];
                            rateLimit: {
                                perDay: number | null;
                                perMinute: number | null;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKeysId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            allowedIps: string[];
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            expiresAt: string | null;
                            id: string;
                            last4: string;
                            lastUsedAt: string | null;
                            name: string;
                            permissions: string[];
                            rateLimit: {
                                perDay: number | null;
                                perMinute: number | null;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiKeysId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            /** @constant */
                            revoked: true;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiKeysIdRotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "graceSeconds": 60
                 *     }
                 */
                "application/json": {
                    /** @default 0 */
                    graceSeconds?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            allowedIps: string[];
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            expiresAt: string | null;
                            id: string;
                            /** @description The full key: shown once */
                            key: string;
                            last4: string;
                            lastUsedAt: string | null;
                            name: string;
                            permissions: string[];
                            rateLimit: {
                                perDay: number | null;
                                perMinute: number | null;
                            };
                            replaces: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApps: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "web",
                 *       "name": "Support",
                 *       "description": "Answers product questions",
                 *       "widget": {
                 *         "allowedOrigins": [
                 *           "https://www.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @default null */
                    avatarUrl?: string | null;
                    /** @default 0.35 */
                    confidenceThreshold?: number;
                    /** @default null */
                    description?: string | null;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "description": "",
                     *       "avatarUrl": null,
                     *       "command": "ask",
                     *       "channels": []
                     *     }
                     */
                    discord?: {
                        /** @default null */
                        avatarUrl?: string | null;
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default ask */
                        command?: string;
                        /** @default  */
                        description?: string;
                    };
                    /**
                     * @default {
                     *       "message": "I'm sorry, I don't know the answer to that yet.",
                     *       "handoff": {
                     *         "enabled": false,
                     *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                     *       },
                     *       "suggestions": true,
                     *       "collectFeedback": true
                     *     }
                     */
                    fallback?: {
                        /** @default true */
                        collectFeedback?: boolean;
                        /**
                         * @default {
                         *       "enabled": false,
                         *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                         *     }
                         */
                        handoff?: {
                            email?: string | null;
                            /** @default false */
                            enabled?: boolean;
                            /** @default Would you like to talk to a person? Our team can take over this conversation. */
                            message?: string;
                            url?: string | null;
                        };
                        /** @default I'm sorry, I don't know the answer to that yet. */
                        message?: string;
                        /** @default true */
                        suggestions?: boolean;
                    };
                    /** @default 10 */
                    historyLimit?: number;
                    /** @default [] */
                    knowledgeBases?: {
                        id: string;
                        /** @default 5 */
                        priority?: number;
                    }[];
                    /** @default en */
                    language?: string;
                    /** @default 2000 */
                    maxResponseLength?: number;
                    /**
                     * @default {
                     *       "provider": "extractive"
                     *     }
                     */
                    model?: {
                        /** Format: uri */
                        baseUrl?: string;
                        name?: string;
                        /**
                         * @default extractive
                         * @enum {string}
                         */
                        provider?: "extractive" | "openai" | "anthropic";
                        temperature?: number;
                    };
                    name: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "command": "/parley",
                     *       "channels": []
                     *     }
                     */
                    slack?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default /parley */
                        command?: string;
                    };
                    /**
                     * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                     *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                     *
                     *     Knowledge:
                     *     {{knowledge}}
                     */
                    systemPrompt?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "channels": []
                     *     }
                     */
                    teams?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                    };
                    /** @default [] */
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                    /** @enum {string} */
                    type: "web" | "api" | "discord" | "slack" | "teams";
                    /** @default {} */
                    variables?: {
                        [key: string]: string;
                    };
                    widget?: {
                        allowedOrigins?: string[];
                        /** @default null */
                        colors?: {
                            background: string;
                            primary: string;
                            text: string;
                        } | null;
                        /** @default null */
                        iconUrl?: string | null;
                        /**
                         * @default collapsed
                         * @enum {string}
                         */
                        initialState?: "collapsed" | "expanded";
                        /**
                         * @default bottom-right
                         * @enum {string}
                         */
                        position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                        /** @default {} */
                        strings?: {
                            close?: string;
                            contactPage?: string;
                            dialog?: string;
                            error?: string;
                            forbidden?: string;
                            handoffRequested?: string;
                            helpful?: string;
                            inputLabel?: string;
                            invalid?: string;
                            needHelp?: string;
                            newConversation?: string;
                            notFound?: string;
                            notHelpful?: string;
                            offline?: string;
                            open?: string;
                            placeholder?: string;
                            rateLimited?: string;
                            retry?: string;
                            send?: string;
                            sources?: string;
                            subtitle?: string;
                            suggestions?: string;
                            supportTeam?: string;
                            talkToHuman?: string;
                            wasHelpful?: string;
                        };
                        /**
                         * @default light
                         * @enum {string}
                         */
                        theme?: "light" | "dark" | "custom";
                        /** @default Hi! How can I help you today? */
                        welcomeMessage?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            warnings: string[];
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAppsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAppsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            id: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAppsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Updated",
                 *       "confidenceThreshold": 0.4
                 *     }
                 */
                "application/json": {
                    /** @default null */
                    avatarUrl?: string | null;
                    /** @default 0.35 */
                    confidenceThreshold?: number;
                    /** @default null */
                    description?: string | null;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "description": "",
                     *       "avatarUrl": null,
                     *       "command": "ask",
                     *       "channels": []
                     *     }
                     */
                    discord?: {
                        /** @default null */
                        avatarUrl?: string | null;
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default ask */
                        command?: string;
                        /** @default  */
                        description?: string;
                    };
                    /**
                     * @default {
                     *       "message": "I'm sorry, I don't know the answer to that yet.",
                     *       "handoff": {
                     *         "enabled": false,
                     *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                     *       },
                     *       "suggestions": true,
                     *       "collectFeedback": true
                     *     }
                     */
                    fallback?: {
                        /** @default true */
                        collectFeedback?: boolean;
                        /**
                         * @default {
                         *       "enabled": false,
                         *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                         *     }
                         */
                        handoff?: {
                            email?: string | null;
                            /** @default false */
                            enabled?: boolean;
                            /** @default Would you like to talk to a person? Our team can take over this conversation. */
                            message?: string;
                            url?: string | null;
                        };
                        /** @default I'm sorry, I don't know the answer to that yet. */
                        message?: string;
                        /** @default true */
                        suggestions?: boolean;
                    };
                    /** @default 10 */
                    historyLimit?: number;
                    /** @default [] */
                    knowledgeBases?: {
                        id: string;
                        /** @default 5 */
                        priority?: number;
                    }[];
                    /** @default en */
                    language?: string;
                    /** @default 2000 */
                    maxResponseLength?: number;
                    /**
                     * @default {
                     *       "provider": "extractive"
                     *     }
                     */
                    model?: {
                        /** Format: uri */
                        baseUrl?: string;
                        name?: string;
                        /**
                         * @default extractive
                         * @enum {string}
                         */
                        provider?: "extractive" | "openai" | "anthropic";
                        temperature?: number;
                    };
                    name?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "command": "/parley",
                     *       "channels": []
                     *     }
                     */
                    slack?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default /parley */
                        command?: string;
                    };
                    /**
                     * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                     *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                     *
                     *     Knowledge:
                     *     {{knowledge}}
                     */
                    systemPrompt?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "channels": []
                     *     }
                     */
                    teams?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                    };
                    /** @default [] */
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                    /** @default {} */
                    variables?: {
                        [key: string]: string;
                    };
                    widget?: {
                        allowedOrigins?: string[];
                        /** @default null */
                        colors?: {
                            background: string;
                            primary: string;
                            text: string;
                        } | null;
                        /** @default null */
                        iconUrl?: string | null;
                        /**
                         * @default collapsed
                         * @enum {string}
                         */
                        initialState?: "collapsed" | "expanded";
                        /**
                         * @default bottom-right
                         * @enum {string}
                         */
                        position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                        /** @default {} */
                        strings?: {
                            close?: string;
                            contactPage?: string;
                            dialog?: string;
                            error?: string;
                            forbidden?: string;
                            handoffRequested?: string;
                            helpful?: string;
                            inputLabel?: string;
                            invalid?: string;
                            needHelp?: string;
                            newConversation?: string;
                            notFound?: string;
                            notHelpful?: string;
                            offline?: string;
                            open?: string;
                            placeholder?: string;
                            rateLimited?: string;
                            retry?: string;
                            send?: string;
                            sources?: string;
                            subtitle?: string;
                            suggestions?: string;
                            supportTeam?: string;
                            talkToHuman?: string;
                            wasHelpful?: string;
                        };
                        /**
                         * @default light
                         * @enum {string}
                         */
                        theme?: "light" | "dark" | "custom";
                        /** @default Hi! How can I help you today? */
                        welcomeMessage?: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            warnings: string[];
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAppsIdAvatar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": Record<string, never>;
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            avatarUrl: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAppsIdChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "How do I reset my password?",
                 *       "conversation_id": "c-1"
                 *     }
                 */
                "application/json": {
                    conversation_id?: string;
                    explain?: boolean;
                    message: string;
                    metadata?: {
                        [key: string]: unknown;
                    };
                    stream?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            confidence: number;
                            conversation_id: string;
                            messageId: string;
                            response: string;
                            sources: ({
                                title: string;
                                url: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                        };
                        /** @constant */
                        status: "success";
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAppsIdTemplatesTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "What are your opening hours?",
                 *       "templates": [
                 *         {
                 *           "trigger": "opening hours",
                 *           "match": "contains",
                 *           "response": "Nine to five."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    message: string;
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            match: {
                                id: string | null;
                                /** @enum {string} */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            } | null;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAppsIdTexts: {
        parameters: {
            query?: {
                language?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The language's own texts, without the owner's */
                            defaults: {
                                askAbout: string;
                                askCommand: string;
                                askedBy: string;
                                askHint: string;
                                askOption: string;
                                close: string;
                                commandGone: string;
                                confidence: string;
                                contactPage: string;
                                dialog: string;
                                error: string;
                                exampleQuestion: string;
                                feedbackExpired: string;
                                feedbackThanks: string;
                                forbidden: string;
                                gone: string;
                                handoffRequested: string;
                                helpful: string;
                                inputLabel: string;
                                invalid: string;
                                misconfigured: string;
                                needHelp: string;
                                newConversation: string;
                                noAnswer: string;
                                notActive: string;
                                notFound: string;
                                notHandled: string;
                                notHelpful: string;
                                offline: string;
                                open: string;
                                placeholder: string;
                                rateLimited: string;
                                retry: string;
                                send: string;
                                source: string;
                                sources: string;
                                subtitle: string;
                                suggestions: string;
                                supportTeam: string;
                                talkToHuman: string;
                                timeout: string;
                                tooLong: string;
                                unreachable: string;
                                wasHelpful: string;
                                wrongCommand: string;
                            };
                            /** @enum {string} */
                            dir: "ltr" | "rtl";
                            /** @description The assistant's language tag */
                            language: string;
                            /** @description Every language's text (by language) of what a platform shows in each reader's own language: Discord's command descriptions */
                            localizations: {
                                askCommand: {
                                    [key: string]: string;
                                };
                                askOption: {
                                    [key: string]: string;
                                };
                            };
                            /** @description The language's default fallback, handoff and welcome messages: what an assistant that kept the defaults shows */
                            messages: {
                                fallback: string;
                                handoff: string;
                                welcome: string;
                            };
                            /** @description With the owner's widget.strings; `{name}`, `{percent}`, `{example}`, `{topics}`, `{user}`, `{question}`, `{command}` are filled in by whoever shows the text */
                            strings: {
                                askAbout: string;
                                askCommand: string;
                                askedBy: string;
                                askHint: string;
                                askOption: string;
                                close: string;
                                commandGone: string;
                                confidence: string;
                                contactPage: string;
                                dialog: string;
                                error: string;
                                exampleQuestion: string;
                                feedbackExpired: string;
                                feedbackThanks: string;
                                forbidden: string;
                                gone: string;
                                handoffRequested: string;
                                helpful: string;
                                inputLabel: string;
                                invalid: string;
                                misconfigured: string;
                                needHelp: string;
                                newConversation: string;
                                noAnswer: string;
                                notActive: string;
                                notFound: string;
                                notHandled: string;
                                notHelpful: string;
                                offline: string;
                                open: string;
                                placeholder: string;
                                rateLimited: string;
                                retry: string;
                                send: string;
                                source: string;
                                sources: string;
                                subtitle: string;
                                suggestions: string;
                                supportTeam: string;
                                talkToHuman: string;
                                timeout: string;
                                tooLong: string;
                                unreachable: string;
                                wasHelpful: string;
                                wrongCommand: string;
                            };
                            /** @description The language of these texts: the tag's own language, or en when Parley has no texts for it */
                            textLanguage: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAssetsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/gif": string;
                    "image/jpeg": string;
                    "image/png": string;
                    "image/webp": string;
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAssistants: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAssistants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "web",
                 *       "name": "Support",
                 *       "description": "Answers product questions",
                 *       "widget": {
                 *         "allowedOrigins": [
                 *           "https://www.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @default null */
                    avatarUrl?: string | null;
                    /** @default 0.35 */
                    confidenceThreshold?: number;
                    /** @default null */
                    description?: string | null;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "description": "",
                     *       "avatarUrl": null,
                     *       "command": "ask",
                     *       "channels": []
                     *     }
                     */
                    discord?: {
                        /** @default null */
                        avatarUrl?: string | null;
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default ask */
                        command?: string;
                        /** @default  */
                        description?: string;
                    };
                    /**
                     * @default {
                     *       "message": "I'm sorry, I don't know the answer to that yet.",
                     *       "handoff": {
                     *         "enabled": false,
                     *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                     *       },
                     *       "suggestions": true,
                     *       "collectFeedback": true
                     *     }
                     */
                    fallback?: {
                        /** @default true */
                        collectFeedback?: boolean;
                        /**
                         * @default {
                         *       "enabled": false,
                         *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                         *     }
                         */
                        handoff?: {
                            email?: string | null;
                            /** @default false */
                            enabled?: boolean;
                            /** @default Would you like to talk to a person? Our team can take over this conversation. */
                            message?: string;
                            url?: string | null;
                        };
                        /** @default I'm sorry, I don't know the answer to that yet. */
                        message?: string;
                        /** @default true */
                        suggestions?: boolean;
                    };
                    /** @default 10 */
                    historyLimit?: number;
                    /** @default [] */
                    knowledgeBases?: {
                        id: string;
                        /** @default 5 */
                        priority?: number;
                    }[];
                    /** @default en */
                    language?: string;
                    /** @default 2000 */
                    maxResponseLength?: number;
                    /**
                     * @default {
                     *       "provider": "extractive"
                     *     }
                     */
                    model?: {
                        /** Format: uri */
                        baseUrl?: string;
                        name?: string;
                        /**
                         * @default extractive
                         * @enum {string}
                         */
                        provider?: "extractive" | "openai" | "anthropic";
                        temperature?: number;
                    };
                    name: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "command": "/parley",
                     *       "channels": []
                     *     }
                     */
                    slack?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default /parley */
                        command?: string;
                    };
                    /**
                     * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                     *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                     *
                     *     Knowledge:
                     *     {{knowledge}}
                     */
                    systemPrompt?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "channels": []
                     *     }
                     */
                    teams?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                    };
                    /** @default [] */
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                    /** @enum {string} */
                    type: "web" | "api" | "discord" | "slack" | "teams";
                    /** @default {} */
                    variables?: {
                        [key: string]: string;
                    };
                    widget?: {
                        allowedOrigins?: string[];
                        /** @default null */
                        colors?: {
                            background: string;
                            primary: string;
                            text: string;
                        } | null;
                        /** @default null */
                        iconUrl?: string | null;
                        /**
                         * @default collapsed
                         * @enum {string}
                         */
                        initialState?: "collapsed" | "expanded";
                        /**
                         * @default bottom-right
                         * @enum {string}
                         */
                        position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                        /** @default {} */
                        strings?: {
                            close?: string;
                            contactPage?: string;
                            dialog?: string;
                            error?: string;
                            forbidden?: string;
                            handoffRequested?: string;
                            helpful?: string;
                            inputLabel?: string;
                            invalid?: string;
                            needHelp?: string;
                            newConversation?: string;
                            notFound?: string;
                            notHelpful?: string;
                            offline?: string;
                            open?: string;
                            placeholder?: string;
                            rateLimited?: string;
                            retry?: string;
                            send?: string;
                            sources?: string;
                            subtitle?: string;
                            suggestions?: string;
                            supportTeam?: string;
                            talkToHuman?: string;
                            wasHelpful?: string;
                        };
                        /**
                         * @default light
                         * @enum {string}
                         */
                        theme?: "light" | "dark" | "custom";
                        /** @default Hi! How can I help you today? */
                        welcomeMessage?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            warnings: string[];
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAssistantsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAssistantsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            id: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAssistantsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Updated",
                 *       "confidenceThreshold": 0.4
                 *     }
                 */
                "application/json": {
                    /** @default null */
                    avatarUrl?: string | null;
                    /** @default 0.35 */
                    confidenceThreshold?: number;
                    /** @default null */
                    description?: string | null;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "description": "",
                     *       "avatarUrl": null,
                     *       "command": "ask",
                     *       "channels": []
                     *     }
                     */
                    discord?: {
                        /** @default null */
                        avatarUrl?: string | null;
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default ask */
                        command?: string;
                        /** @default  */
                        description?: string;
                    };
                    /**
                     * @default {
                     *       "message": "I'm sorry, I don't know the answer to that yet.",
                     *       "handoff": {
                     *         "enabled": false,
                     *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                     *       },
                     *       "suggestions": true,
                     *       "collectFeedback": true
                     *     }
                     */
                    fallback?: {
                        /** @default true */
                        collectFeedback?: boolean;
                        /**
                         * @default {
                         *       "enabled": false,
                         *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                         *     }
                         */
                        handoff?: {
                            email?: string | null;
                            /** @default false */
                            enabled?: boolean;
                            /** @default Would you like to talk to a person? Our team can take over this conversation. */
                            message?: string;
                            url?: string | null;
                        };
                        /** @default I'm sorry, I don't know the answer to that yet. */
                        message?: string;
                        /** @default true */
                        suggestions?: boolean;
                    };
                    /** @default 10 */
                    historyLimit?: number;
                    /** @default [] */
                    knowledgeBases?: {
                        id: string;
                        /** @default 5 */
                        priority?: number;
                    }[];
                    /** @default en */
                    language?: string;
                    /** @default 2000 */
                    maxResponseLength?: number;
                    /**
                     * @default {
                     *       "provider": "extractive"
                     *     }
                     */
                    model?: {
                        /** Format: uri */
                        baseUrl?: string;
                        name?: string;
                        /**
                         * @default extractive
                         * @enum {string}
                         */
                        provider?: "extractive" | "openai" | "anthropic";
                        temperature?: number;
                    };
                    name?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "command": "/parley",
                     *       "channels": []
                     *     }
                     */
                    slack?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default /parley */
                        command?: string;
                    };
                    /**
                     * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                     *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                     *
                     *     Knowledge:
                     *     {{knowledge}}
                     */
                    systemPrompt?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "channels": []
                     *     }
                     */
                    teams?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                    };
                    /** @default [] */
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                    /** @default {} */
                    variables?: {
                        [key: string]: string;
                    };
                    widget?: {
                        allowedOrigins?: string[];
                        /** @default null */
                        colors?: {
                            background: string;
                            primary: string;
                            text: string;
                        } | null;
                        /** @default null */
                        iconUrl?: string | null;
                        /**
                         * @default collapsed
                         * @enum {string}
                         */
                        initialState?: "collapsed" | "expanded";
                        /**
                         * @default bottom-right
                         * @enum {string}
                         */
                        position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                        /** @default {} */
                        strings?: {
                            close?: string;
                            contactPage?: string;
                            dialog?: string;
                            error?: string;
                            forbidden?: string;
                            handoffRequested?: string;
                            helpful?: string;
                            inputLabel?: string;
                            invalid?: string;
                            needHelp?: string;
                            newConversation?: string;
                            notFound?: string;
                            notHelpful?: string;
                            offline?: string;
                            open?: string;
                            placeholder?: string;
                            rateLimited?: string;
                            retry?: string;
                            send?: string;
                            sources?: string;
                            subtitle?: string;
                            suggestions?: string;
                            supportTeam?: string;
                            talkToHuman?: string;
                            wasHelpful?: string;
                        };
                        /**
                         * @default light
                         * @enum {string}
                         */
                        theme?: "light" | "dark" | "custom";
                        /** @default Hi! How can I help you today? */
                        welcomeMessage?: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            warnings: string[];
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAssistantsIdAudit: {
        parameters: {
            query?: {
                from?: string;
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "created" | "updated" | "deleted";
                            apiKeyId: string | null;
                            assistantId: string;
                            createdAt: string;
                            /** @description top-level configuration keys that changed */
                            fields: string[];
                            id: string;
                            userEmail: string | null;
                            userId: string | null;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAssistantsIdAvatar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": Record<string, never>;
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            avatarUrl: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAssistantsIdTemplatesTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "What are your opening hours?",
                 *       "templates": [
                 *         {
                 *           "trigger": "opening hours",
                 *           "match": "contains",
                 *           "response": "Nine to five."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    message: string;
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            match: {
                                id: string | null;
                                /** @enum {string} */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            } | null;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAssistantsIdTexts: {
        parameters: {
            query?: {
                language?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The language's own texts, without the owner's */
                            defaults: {
                                askAbout: string;
                                askCommand: string;
                                askedBy: string;
                                askHint: string;
                                askOption: string;
                                close: string;
                                commandGone: string;
                                confidence: string;
                                contactPage: string;
                                dialog: string;
                                error: string;
                                exampleQuestion: string;
                                feedbackExpired: string;
                                feedbackThanks: string;
                                forbidden: string;
                                gone: string;
                                handoffRequested: string;
                                helpful: string;
                                inputLabel: string;
                                invalid: string;
                                misconfigured: string;
                                needHelp: string;
                                newConversation: string;
                                noAnswer: string;
                                notActive: string;
                                notFound: string;
                                notHandled: string;
                                notHelpful: string;
                                offline: string;
                                open: string;
                                placeholder: string;
                                rateLimited: string;
                                retry: string;
                                send: string;
                                source: string;
                                sources: string;
                                subtitle: string;
                                suggestions: string;
                                supportTeam: string;
                                talkToHuman: string;
                                timeout: string;
                                tooLong: string;
                                unreachable: string;
                                wasHelpful: string;
                                wrongCommand: string;
                            };
                            /** @enum {string} */
                            dir: "ltr" | "rtl";
                            /** @description The assistant's language tag */
                            language: string;
                            /** @description Every language's text (by language) of what a platform shows in each reader's own language: Discord's command descriptions */
                            localizations: {
                                askCommand: {
                                    [key: string]: string;
                                };
                                askOption: {
                                    [key: string]: string;
                                };
                            };
                            /** @description The language's default fallback, handoff and welcome messages: what an assistant that kept the defaults shows */
                            messages: {
                                fallback: string;
                                handoff: string;
                                welcome: string;
                            };
                            /** @description With the owner's widget.strings; `{name}`, `{percent}`, `{example}`, `{topics}`, `{user}`, `{question}`, `{command}` are filled in by whoever shows the text */
                            strings: {
                                askAbout: string;
                                askCommand: string;
                                askedBy: string;
                                askHint: string;
                                askOption: string;
                                close: string;
                                commandGone: string;
                                confidence: string;
                                contactPage: string;
                                dialog: string;
                                error: string;
                                exampleQuestion: string;
                                feedbackExpired: string;
                                feedbackThanks: string;
                                forbidden: string;
                                gone: string;
                                handoffRequested: string;
                                helpful: string;
                                inputLabel: string;
                                invalid: string;
                                misconfigured: string;
                                needHelp: string;
                                newConversation: string;
                                noAnswer: string;
                                notActive: string;
                                notFound: string;
                                notHandled: string;
                                notHelpful: string;
                                offline: string;
                                open: string;
                                placeholder: string;
                                rateLimited: string;
                                retry: string;
                                send: string;
                                source: string;
                                sources: string;
                                subtitle: string;
                                suggestions: string;
                                supportTeam: string;
                                talkToHuman: string;
                                timeout: string;
                                tooLong: string;
                                unreachable: string;
                                wasHelpful: string;
                                wrongCommand: string;
                            };
                            /** @description The language of these texts: the tag's own language, or en when Parley has no texts for it */
                            textLanguage: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAudit: {
        parameters: {
            query?: {
                assistantId?: string;
                from?: string;
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "created" | "updated" | "deleted";
                            apiKeyId: string | null;
                            assistantId: string;
                            createdAt: string;
                            /** @description top-level configuration keys that changed */
                            fields: string[];
                            id: string;
                            userEmail: string | null;
                            userId: string | null;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery"
                 *     }
                 */
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organization: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                plan: "free" | "pro" | "enterprise";
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description absent when the request came from the dashboard (X-Parley-CSRF: 1 from PUBLIC_URL): the session is then the parley_session cookie */
                            token?: string;
                            user: {
                                email: string;
                                id: string;
                                name: string | null;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            revoked: true;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the credential's own limits: a key may lower the plan's; a dashboard (cookie) session has interactive ones */
                            limits: {
                                perDay: number;
                                perMinute: number;
                            };
                            organization: {
                                id: string;
                                /** @description the plan's limits */
                                limits: {
                                    perDay: number;
                                    perMinute: number;
                                };
                                name: string;
                                /** @enum {string} */
                                plan: "free" | "pro" | "enterprise";
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description API-key permission names the credential holds */
                            permissions: string[];
                            /** @description the member role of a user session; null for an API key */
                            role: ("viewer" | "editor" | "admin" | "owner") | null;
                            /** @description null for an API key */
                            user: {
                                email: string;
                                id: string;
                                name: string | null;
                            } | null;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ada Lovelace"
                 *     }
                 */
                "application/json": {
                    name: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            email: string;
                            id: string;
                            name: string | null;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "currentPassword": "correct horse battery",
                 *       "newPassword": "a brand new password"
                 *     }
                 */
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            changed: true;
                            revokedSessions: number;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery",
                 *       "name": "Ada",
                 *       "organizationName": "Acme"
                 *     }
                 */
                "application/json": {
                    email: string;
                    name?: string;
                    organizationName: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organization: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                plan: "free" | "pro" | "enterprise";
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description absent when the request came from the dashboard (X-Parley-CSRF: 1 from PUBLIC_URL): the session is then the parley_session cookie */
                            token?: string;
                            user: {
                                email: string;
                                id: string;
                                name: string | null;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthSwitch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "organizationId": "org_0000000000000000000"
                 *     }
                 */
                "application/json": {
                    organizationId: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organization: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                plan: "free" | "pro" | "enterprise";
                            } & {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin" | "owner";
                            /** @description absent when the dashboard got the session as the httpOnly cookie */
                            token?: string;
                            user: {
                                email: string;
                                id: string;
                                name: string | null;
                            };
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConversationsSessionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string;
                            channel: string;
                            corrections: ({
                                answer: string;
                                documentId: string | null;
                                id: string;
                                messageId: string;
                                question: string;
                                templateId: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            endedAt: string | null;
                            handoffRequestedAt: string | null;
                            lastMessageAt: string;
                            messages: {
                                confidence?: number | null;
                                content: string;
                                fellBack?: boolean;
                                id: string;
                                metadata: {
                                    [key: string]: unknown;
                                } | null;
                                rating?: ("up" | "down") | null;
                                ratingComment?: string | null;
                                responseMs?: number | null;
                                /** @enum {string} */
                                role: "user" | "assistant" | "human_agent";
                                sources?: ({
                                    chunkId?: number;
                                    score: number;
                                    text: string;
                                    title: string;
                                    url: string | null;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                templateId?: string | null;
                                timestamp: string;
                            }[];
                            metadata: {
                                [key: string]: unknown;
                            };
                            sessionId: string;
                            source: string | null;
                            startedAt: string;
                            /** @enum {string} */
                            status: "active" | "ended";
                            /** @description the assistant's confidence threshold */
                            threshold: number | null;
                            userId: string | null;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConversationsSessionIdEnd: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            endedAt: string;
                            sessionId: string;
                            /** @constant */
                            status: "ended";
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConversationsSessionIdFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "messageId": "msg_1",
                 *       "rating": "up",
                 *       "comment": "Helpful"
                 *     }
                 */
                "application/json": {
                    comment?: string;
                    messageId: string;
                    /** @enum {string} */
                    rating: "up" | "down";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            messageId: string;
                            /** @enum {string} */
                            rating: "up" | "down";
                            sessionId: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConversationsSessionIdMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        content: string;
                        id: string;
                        metadata?: {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        role: "user" | "assistant" | "human_agent";
                        /** @description ISO 8601 UTC */
                        timestamp: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConversationsSessionIdMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Hi, this is Sam from support."
                 *     }
                 */
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            content: string;
                            id: string;
                            metadata?: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            role: "user" | "assistant" | "human_agent";
                            /** @description ISO 8601 UTC */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCorrections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sessionId": "sess_1",
                 *       "messageId": "msg_1",
                 *       "answer": "We sell e-gift cards from 10 to 200 euros.",
                 *       "asTemplate": {
                 *         "match": "exact"
                 *       }
                 *     }
                 */
                "application/json": {
                    answer: string;
                    asSnippet?: {
                        knowledgeBaseId: string;
                    };
                    asTemplate?: {
                        /** @enum {string} */
                        match: "exact" | "contains";
                    };
                    messageId: string;
                    sessionId: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            answer: string;
                            assistantId: string;
                            createdAt: string;
                            documentId: string | null;
                            id: string;
                            knowledgeBaseId: string | null;
                            messageId: string;
                            question: string;
                            sessionId: string;
                            templateId: string | null;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExportsToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson; charset=utf-8": string;
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHandoffs: {
        parameters: {
            query?: {
                assistantId?: string;
                channel?: string;
                fellBack?: "true" | "false";
                from?: string;
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
                q?: string;
                rating?: "up" | "down";
                source?: string;
                to?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string;
                            avgResponseMs: number | null;
                            /** @enum {string} */
                            channel: "widget" | "api" | "discord" | "slack" | "teams" | "playground";
                            fellBack: boolean;
                            /** @description the visitor's first message, its first 160 characters (null before any) */
                            firstQuestion: string | null;
                            /** @description what the user left with the request (widget handoff form); null when left empty */
                            handoff: {
                                email: string | null;
                                note: string | null;
                            };
                            handoffRequested: boolean;
                            /** @description when the user asked for a human (the queue order) */
                            handoffRequestedAt: string;
                            lastMessageAt: string;
                            messageCount: number;
                            rating: ("up" | "down") | null;
                            sessionId: string;
                            source: string | null;
                            startedAt: string;
                            /** @enum {string} */
                            status: "active" | "ended";
                            userId: string | null;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHandoffsCount: {
        parameters: {
            query?: {
                assistantId?: string;
                channel?: string;
                fellBack?: "true" | "false";
                from?: string;
                q?: string;
                rating?: "up" | "down";
                source?: string;
                to?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            pending: number;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrations: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "web",
                 *       "name": "Support",
                 *       "description": "Answers product questions",
                 *       "widget": {
                 *         "allowedOrigins": [
                 *           "https://www.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @default null */
                    avatarUrl?: string | null;
                    /** @default 0.35 */
                    confidenceThreshold?: number;
                    /** @default null */
                    description?: string | null;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "description": "",
                     *       "avatarUrl": null,
                     *       "command": "ask",
                     *       "channels": []
                     *     }
                     */
                    discord?: {
                        /** @default null */
                        avatarUrl?: string | null;
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default ask */
                        command?: string;
                        /** @default  */
                        description?: string;
                    };
                    /**
                     * @default {
                     *       "message": "I'm sorry, I don't know the answer to that yet.",
                     *       "handoff": {
                     *         "enabled": false,
                     *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                     *       },
                     *       "suggestions": true,
                     *       "collectFeedback": true
                     *     }
                     */
                    fallback?: {
                        /** @default true */
                        collectFeedback?: boolean;
                        /**
                         * @default {
                         *       "enabled": false,
                         *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                         *     }
                         */
                        handoff?: {
                            email?: string | null;
                            /** @default false */
                            enabled?: boolean;
                            /** @default Would you like to talk to a person? Our team can take over this conversation. */
                            message?: string;
                            url?: string | null;
                        };
                        /** @default I'm sorry, I don't know the answer to that yet. */
                        message?: string;
                        /** @default true */
                        suggestions?: boolean;
                    };
                    /** @default 10 */
                    historyLimit?: number;
                    /** @default [] */
                    knowledgeBases?: {
                        id: string;
                        /** @default 5 */
                        priority?: number;
                    }[];
                    /** @default en */
                    language?: string;
                    /** @default 2000 */
                    maxResponseLength?: number;
                    /**
                     * @default {
                     *       "provider": "extractive"
                     *     }
                     */
                    model?: {
                        /** Format: uri */
                        baseUrl?: string;
                        name?: string;
                        /**
                         * @default extractive
                         * @enum {string}
                         */
                        provider?: "extractive" | "openai" | "anthropic";
                        temperature?: number;
                    };
                    name: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "command": "/parley",
                     *       "channels": []
                     *     }
                     */
                    slack?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default /parley */
                        command?: string;
                    };
                    /**
                     * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                     *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                     *
                     *     Knowledge:
                     *     {{knowledge}}
                     */
                    systemPrompt?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "channels": []
                     *     }
                     */
                    teams?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                    };
                    /** @default [] */
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                    /** @enum {string} */
                    type: "web" | "api" | "discord" | "slack" | "teams";
                    /** @default {} */
                    variables?: {
                        [key: string]: string;
                    };
                    widget?: {
                        allowedOrigins?: string[];
                        /** @default null */
                        colors?: {
                            background: string;
                            primary: string;
                            text: string;
                        } | null;
                        /** @default null */
                        iconUrl?: string | null;
                        /**
                         * @default collapsed
                         * @enum {string}
                         */
                        initialState?: "collapsed" | "expanded";
                        /**
                         * @default bottom-right
                         * @enum {string}
                         */
                        position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                        /** @default {} */
                        strings?: {
                            close?: string;
                            contactPage?: string;
                            dialog?: string;
                            error?: string;
                            forbidden?: string;
                            handoffRequested?: string;
                            helpful?: string;
                            inputLabel?: string;
                            invalid?: string;
                            needHelp?: string;
                            newConversation?: string;
                            notFound?: string;
                            notHelpful?: string;
                            offline?: string;
                            open?: string;
                            placeholder?: string;
                            rateLimited?: string;
                            retry?: string;
                            send?: string;
                            sources?: string;
                            subtitle?: string;
                            suggestions?: string;
                            supportTeam?: string;
                            talkToHuman?: string;
                            wasHelpful?: string;
                        };
                        /**
                         * @default light
                         * @enum {string}
                         */
                        theme?: "light" | "dark" | "custom";
                        /** @default Hi! How can I help you today? */
                        welcomeMessage?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            warnings: string[];
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteIntegrationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            id: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchIntegrationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Updated",
                 *       "confidenceThreshold": 0.4
                 *     }
                 */
                "application/json": {
                    /** @default null */
                    avatarUrl?: string | null;
                    /** @default 0.35 */
                    confidenceThreshold?: number;
                    /** @default null */
                    description?: string | null;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "description": "",
                     *       "avatarUrl": null,
                     *       "command": "ask",
                     *       "channels": []
                     *     }
                     */
                    discord?: {
                        /** @default null */
                        avatarUrl?: string | null;
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default ask */
                        command?: string;
                        /** @default  */
                        description?: string;
                    };
                    /**
                     * @default {
                     *       "message": "I'm sorry, I don't know the answer to that yet.",
                     *       "handoff": {
                     *         "enabled": false,
                     *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                     *       },
                     *       "suggestions": true,
                     *       "collectFeedback": true
                     *     }
                     */
                    fallback?: {
                        /** @default true */
                        collectFeedback?: boolean;
                        /**
                         * @default {
                         *       "enabled": false,
                         *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                         *     }
                         */
                        handoff?: {
                            email?: string | null;
                            /** @default false */
                            enabled?: boolean;
                            /** @default Would you like to talk to a person? Our team can take over this conversation. */
                            message?: string;
                            url?: string | null;
                        };
                        /** @default I'm sorry, I don't know the answer to that yet. */
                        message?: string;
                        /** @default true */
                        suggestions?: boolean;
                    };
                    /** @default 10 */
                    historyLimit?: number;
                    /** @default [] */
                    knowledgeBases?: {
                        id: string;
                        /** @default 5 */
                        priority?: number;
                    }[];
                    /** @default en */
                    language?: string;
                    /** @default 2000 */
                    maxResponseLength?: number;
                    /**
                     * @default {
                     *       "provider": "extractive"
                     *     }
                     */
                    model?: {
                        /** Format: uri */
                        baseUrl?: string;
                        name?: string;
                        /**
                         * @default extractive
                         * @enum {string}
                         */
                        provider?: "extractive" | "openai" | "anthropic";
                        temperature?: number;
                    };
                    name?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "command": "/parley",
                     *       "channels": []
                     *     }
                     */
                    slack?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                        /** @default /parley */
                        command?: string;
                    };
                    /**
                     * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                     *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                     *
                     *     Knowledge:
                     *     {{knowledge}}
                     */
                    systemPrompt?: string;
                    /**
                     * @default {
                     *       "botName": null,
                     *       "channels": []
                     *     }
                     */
                    teams?: {
                        /** @default null */
                        botName?: string | null;
                        /** @default [] */
                        channels?: string[];
                    };
                    /** @default [] */
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                    /** @default {} */
                    variables?: {
                        [key: string]: string;
                    };
                    widget?: {
                        allowedOrigins?: string[];
                        /** @default null */
                        colors?: {
                            background: string;
                            primary: string;
                            text: string;
                        } | null;
                        /** @default null */
                        iconUrl?: string | null;
                        /**
                         * @default collapsed
                         * @enum {string}
                         */
                        initialState?: "collapsed" | "expanded";
                        /**
                         * @default bottom-right
                         * @enum {string}
                         */
                        position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                        /** @default {} */
                        strings?: {
                            close?: string;
                            contactPage?: string;
                            dialog?: string;
                            error?: string;
                            forbidden?: string;
                            handoffRequested?: string;
                            helpful?: string;
                            inputLabel?: string;
                            invalid?: string;
                            needHelp?: string;
                            newConversation?: string;
                            notFound?: string;
                            notHelpful?: string;
                            offline?: string;
                            open?: string;
                            placeholder?: string;
                            rateLimited?: string;
                            retry?: string;
                            send?: string;
                            sources?: string;
                            subtitle?: string;
                            suggestions?: string;
                            supportTeam?: string;
                            talkToHuman?: string;
                            wasHelpful?: string;
                        };
                        /**
                         * @default light
                         * @enum {string}
                         */
                        theme?: "light" | "dark" | "custom";
                        /** @default Hi! How can I help you today? */
                        welcomeMessage?: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @default null */
                            avatarUrl: string | null;
                            /** @default 0.35 */
                            confidenceThreshold: number;
                            createdAt: string;
                            /** @default null */
                            description: string | null;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "description": "",
                             *       "avatarUrl": null,
                             *       "command": "ask",
                             *       "channels": []
                             *     }
                             */
                            discord: {
                                /** @default null */
                                avatarUrl: string | null;
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default ask */
                                command: string;
                                /** @default  */
                                description: string;
                            };
                            /**
                             * @default {
                             *       "message": "I'm sorry, I don't know the answer to that yet.",
                             *       "handoff": {
                             *         "enabled": false,
                             *         "message": "Would you like to talk to a person? Our team can take over this conversation."
                             *       },
                             *       "suggestions": true,
                             *       "collectFeedback": true
                             *     }
                             */
                            fallback: {
                                /** @default true */
                                collectFeedback: boolean;
                                /**
                                 * @default {
                                 *       "enabled": false,
                                 *       "message": "Would you like to talk to a person? Our team can take over this conversation."
                                 *     }
                                 */
                                handoff: {
                                    email?: string | null;
                                    /** @default false */
                                    enabled: boolean;
                                    /** @default Would you like to talk to a person? Our team can take over this conversation. */
                                    message: string;
                                    url?: string | null;
                                };
                                /** @default I'm sorry, I don't know the answer to that yet. */
                                message: string;
                                /** @default true */
                                suggestions: boolean;
                            };
                            /** @default 10 */
                            historyLimit: number;
                            id: string;
                            /** @default [] */
                            knowledgeBases: {
                                id: string;
                                /** @default 5 */
                                priority: number;
                            }[];
                            /** @default en */
                            language: string;
                            /** @default 2000 */
                            maxResponseLength: number;
                            /**
                             * @default {
                             *       "provider": "extractive"
                             *     }
                             */
                            model: {
                                /** Format: uri */
                                baseUrl?: string;
                                name?: string;
                                /**
                                 * @default extractive
                                 * @enum {string}
                                 */
                                provider: "extractive" | "openai" | "anthropic";
                                temperature?: number;
                            };
                            name?: string;
                            organizationId: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "command": "/parley",
                             *       "channels": []
                             *     }
                             */
                            slack: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                                /** @default /parley */
                                command: string;
                            };
                            /**
                             * @default You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.
                             *     If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].
                             *
                             *     Knowledge:
                             *     {{knowledge}}
                             */
                            systemPrompt: string;
                            /**
                             * @default {
                             *       "botName": null,
                             *       "channels": []
                             *     }
                             */
                            teams: {
                                /** @default null */
                                botName: string | null;
                                /** @default [] */
                                channels: string[];
                            };
                            /** @default [] */
                            templates: {
                                id?: string;
                                /**
                                 * @default contains
                                 * @enum {string}
                                 */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            }[];
                            /** @enum {string} */
                            type: "web" | "api" | "discord" | "slack" | "teams";
                            updatedAt: string;
                            /** @default {} */
                            variables: {
                                [key: string]: string;
                            };
                            warnings: string[];
                            /**
                             * @default {
                             *       "theme": "light",
                             *       "colors": null,
                             *       "position": "bottom-right",
                             *       "initialState": "collapsed",
                             *       "welcomeMessage": "Hi! How can I help you today?",
                             *       "iconUrl": null,
                             *       "allowedOrigins": [],
                             *       "strings": {}
                             *     }
                             */
                            widget: {
                                /** @default [] */
                                allowedOrigins: unknown[];
                                /** @default null */
                                colors: {
                                    background: string;
                                    primary: string;
                                    text: string;
                                } | null;
                                /** @default null */
                                iconUrl: string | null;
                                /**
                                 * @default collapsed
                                 * @enum {string}
                                 */
                                initialState: "collapsed" | "expanded";
                                /**
                                 * @default bottom-right
                                 * @enum {string}
                                 */
                                position: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                                /** @default {} */
                                strings: {
                                    close?: string;
                                    contactPage?: string;
                                    dialog?: string;
                                    error?: string;
                                    forbidden?: string;
                                    handoffRequested?: string;
                                    helpful?: string;
                                    inputLabel?: string;
                                    invalid?: string;
                                    needHelp?: string;
                                    newConversation?: string;
                                    notFound?: string;
                                    notHelpful?: string;
                                    offline?: string;
                                    open?: string;
                                    placeholder?: string;
                                    rateLimited?: string;
                                    retry?: string;
                                    send?: string;
                                    sources?: string;
                                    subtitle?: string;
                                    suggestions?: string;
                                    supportTeam?: string;
                                    talkToHuman?: string;
                                    wasHelpful?: string;
                                };
                                /**
                                 * @default light
                                 * @enum {string}
                                 */
                                theme: "light" | "dark" | "custom";
                                /** @default Hi! How can I help you today? */
                                welcomeMessage: string;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsIdAvatar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": Record<string, never>;
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            avatarUrl: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsIdChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "How do I reset my password?",
                 *       "sessionId": "user-42.session",
                 *       "metadata": {
                 *         "userId": "u42",
                 *         "source": "web"
                 *       }
                 *     }
                 */
                "application/json": {
                    explain?: boolean;
                    message: string;
                    metadata?: {
                        [key: string]: unknown;
                    };
                    sessionId?: string;
                    stream?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        confidence: number;
                        messageId: string;
                        response: string;
                        sessionId: string;
                        sources: ({
                            title: string;
                            url: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorForm1"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorForm1"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorForm1"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorForm1"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorForm1"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorForm1"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorForm1"];
                };
            };
        };
    };
    getIntegrationsIdConversationsSessionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string;
                            endedAt: string | null;
                            lastMessageAt: string;
                            messages: ({
                                content: string;
                                id: string;
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                role: "user" | "assistant" | "human_agent";
                                /** @description ISO 8601 UTC */
                                timestamp: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            metadata: {
                                [key: string]: unknown;
                            };
                            sessionId: string;
                            startedAt: string;
                            /** @enum {string} */
                            status: "active" | "ended";
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsIdTemplatesTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "What are your opening hours?",
                 *       "templates": [
                 *         {
                 *           "trigger": "opening hours",
                 *           "match": "contains",
                 *           "response": "Nine to five."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    message: string;
                    templates?: {
                        id?: string;
                        /**
                         * @default contains
                         * @enum {string}
                         */
                        match?: "exact" | "contains" | "regex";
                        response: string;
                        trigger: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            match: {
                                id: string | null;
                                /** @enum {string} */
                                match: "exact" | "contains" | "regex";
                                response: string;
                                trigger: string;
                            } | null;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrationsIdTexts: {
        parameters: {
            query?: {
                language?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The language's own texts, without the owner's */
                            defaults: {
                                askAbout: string;
                                askCommand: string;
                                askedBy: string;
                                askHint: string;
                                askOption: string;
                                close: string;
                                commandGone: string;
                                confidence: string;
                                contactPage: string;
                                dialog: string;
                                error: string;
                                exampleQuestion: string;
                                feedbackExpired: string;
                                feedbackThanks: string;
                                forbidden: string;
                                gone: string;
                                handoffRequested: string;
                                helpful: string;
                                inputLabel: string;
                                invalid: string;
                                misconfigured: string;
                                needHelp: string;
                                newConversation: string;
                                noAnswer: string;
                                notActive: string;
                                notFound: string;
                                notHandled: string;
                                notHelpful: string;
                                offline: string;
                                open: string;
                                placeholder: string;
                                rateLimited: string;
                                retry: string;
                                send: string;
                                source: string;
                                sources: string;
                                subtitle: string;
                                suggestions: string;
                                supportTeam: string;
                                talkToHuman: string;
                                timeout: string;
                                tooLong: string;
                                unreachable: string;
                                wasHelpful: string;
                                wrongCommand: string;
                            };
                            /** @enum {string} */
                            dir: "ltr" | "rtl";
                            /** @description The assistant's language tag */
                            language: string;
                            /** @description Every language's text (by language) of what a platform shows in each reader's own language: Discord's command descriptions */
                            localizations: {
                                askCommand: {
                                    [key: string]: string;
                                };
                                askOption: {
                                    [key: string]: string;
                                };
                            };
                            /** @description The language's default fallback, handoff and welcome messages: what an assistant that kept the defaults shows */
                            messages: {
                                fallback: string;
                                handoff: string;
                                welcome: string;
                            };
                            /** @description With the owner's widget.strings; `{name}`, `{percent}`, `{example}`, `{topics}`, `{user}`, `{question}`, `{command}` are filled in by whoever shows the text */
                            strings: {
                                askAbout: string;
                                askCommand: string;
                                askedBy: string;
                                askHint: string;
                                askOption: string;
                                close: string;
                                commandGone: string;
                                confidence: string;
                                contactPage: string;
                                dialog: string;
                                error: string;
                                exampleQuestion: string;
                                feedbackExpired: string;
                                feedbackThanks: string;
                                forbidden: string;
                                gone: string;
                                handoffRequested: string;
                                helpful: string;
                                inputLabel: string;
                                invalid: string;
                                misconfigured: string;
                                needHelp: string;
                                newConversation: string;
                                noAnswer: string;
                                notActive: string;
                                notFound: string;
                                notHandled: string;
                                notHelpful: string;
                                offline: string;
                                open: string;
                                placeholder: string;
                                rateLimited: string;
                                retry: string;
                                send: string;
                                source: string;
                                sources: string;
                                subtitle: string;
                                suggestions: string;
                                supportTeam: string;
                                talkToHuman: string;
                                timeout: string;
                                tooLong: string;
                                unreachable: string;
                                wasHelpful: string;
                                wrongCommand: string;
                            };
                            /** @description The language of these texts: the tag's own language, or en when Parley has no texts for it */
                            textLanguage: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvitationsToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            email: string | null;
                            expiresAt: string;
                            organization: {
                                id: string;
                                name: string;
                            };
                            role: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInvitationsTokenAccept: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "eve@example.com",
                 *       "password": "correct horse battery",
                 *       "name": "Eve"
                 *     }
                 */
                "application/json": {
                    email: string;
                    name?: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organization: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                plan: "free" | "pro" | "enterprise";
                            } & {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            role: "admin" | "editor" | "viewer";
                            /** @description absent when the dashboard got the session as the httpOnly cookie */
                            token?: string;
                            user: {
                                email: string;
                                id: string;
                                name: string | null;
                            };
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKnowledgeBases: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            chunkCount: number;
                            createdAt: string;
                            description: string | null;
                            documentCount: number;
                            id: string;
                            /** @description 'auto' (each document's language detected at ingest) or the BCP 47 tag that fixes it */
                            language: string;
                            name: string;
                            organizationId: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postKnowledgeBases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Help center",
                 *       "description": "Public articles"
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /** @description 'auto' (default: each document's language detected) or a BCP 47 tag that fixes it; a change re-analyses the documents */
                    language?: string;
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            chunkCount: number;
                            createdAt: string;
                            description: string | null;
                            documentCount: number;
                            id: string;
                            /** @description 'auto' (each document's language detected at ingest) or the BCP 47 tag that fixes it */
                            language: string;
                            name: string;
                            organizationId: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKnowledgeBasesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            chunkCount: number;
                            createdAt: string;
                            description: string | null;
                            documentCount: number;
                            id: string;
                            /** @description 'auto' (each document's language detected at ingest) or the BCP 47 tag that fixes it */
                            language: string;
                            name: string;
                            organizationId: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteKnowledgeBasesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            id: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchKnowledgeBasesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Articles and FAQ"
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /** @description 'auto' (default: each document's language detected) or a BCP 47 tag that fixes it; a change re-analyses the documents */
                    language?: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            chunkCount: number;
                            createdAt: string;
                            description: string | null;
                            documentCount: number;
                            id: string;
                            /** @description 'auto' (each document's language detected at ingest) or the BCP 47 tag that fixes it */
                            language: string;
                            name: string;
                            organizationId: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKnowledgeBasesIdDocuments: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            bytes: number;
                            chunkCount: number;
                            createdAt: string;
                            format: string;
                            id: string;
                            knowledgeBaseId: string;
                            /** @description read-only: the language the text was analysed in (detected, or the base's); null before it has content */
                            language: string | null;
                            /** @enum {string} */
                            status: "queued" | "processing" | "ready" | "failed";
                            title: string;
                            url: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postKnowledgeBasesIdDocuments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Returns",
                 *       "content": "Items can be returned within 30 days.",
                 *       "format": "text"
                 *     }
                 */
                "application/json": {
                    content: string;
                    /**
                     * @default text
                     * @enum {string}
                     */
                    format?: "text" | "markdown" | "html";
                    title: string;
                    url?: string | null;
                } | {
                    crawl?: {
                        /** @default 2 */
                        maxDepth?: number;
                        /** @default 50 */
                        maxPages?: number;
                    } | null;
                    title?: string | null;
                    /** Format: uri */
                    url: string;
                };
                "multipart/form-data": Record<string, never>;
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            bytes: number;
                            chunkCount: number;
                            createdAt: string;
                            format: string;
                            id: string;
                            knowledgeBaseId: string;
                            /** @description read-only: the language the text was analysed in (detected, or the base's); null before it has content */
                            language: string | null;
                            /** @enum {string} */
                            status: "queued" | "processing" | "ready" | "failed";
                            title: string;
                            url: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKnowledgeBasesIdDocumentsDocId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                docId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            bytes: number;
                            chunkCount: number;
                            createdAt: string;
                            format: string;
                            id: string;
                            knowledgeBaseId: string;
                            /** @description read-only: the language the text was analysed in (detected, or the base's); null before it has content */
                            language: string | null;
                            /** @enum {string} */
                            status: "queued" | "processing" | "ready" | "failed";
                            title: string;
                            url: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteKnowledgeBasesIdDocumentsDocId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                docId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            id: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKnowledgeBasesIdDocumentsDocIdChunks: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path: {
                docId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            heading: string | null;
                            id: string;
                            ordinal: number;
                            page: number | null;
                            text: string;
                            url: string | null;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postKnowledgeBasesIdDocumentsDocIdSync: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                docId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            bytes: number;
                            chunkCount: number;
                            createdAt: string;
                            format: string;
                            id: string;
                            knowledgeBaseId: string;
                            /** @description read-only: the language the text was analysed in (detected, or the base's); null before it has content */
                            language: string | null;
                            /** @enum {string} */
                            status: "queued" | "processing" | "ready" | "failed";
                            title: string;
                            url: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postKnowledgeBasesIdSearch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "return policy",
                 *       "limit": 5
                 *     }
                 */
                "application/json": {
                    /** @default 10 */
                    limit?: number;
                    query: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            chunkId: string;
                            documentId: string;
                            page?: number;
                            score: number;
                            text: string;
                            title: string;
                            url: string | null;
                        }[];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        paths: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizations: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro" | "enterprise";
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchOrganizationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Acme Inc."
                 *     }
                 */
                "application/json": {
                    name?: string;
                    /** @enum {string} */
                    plan?: "free" | "pro" | "enterprise";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro" | "enterprise";
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationsIdAudit: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "member_removed" | "member_left";
                            actorApiKeyId: string | null;
                            actorUserId: string | null;
                            createdAt: string;
                            details: {
                                /** @enum {string} */
                                choice: "revoke" | "transfer";
                                invitations: {
                                    email: string | null;
                                    id: string;
                                    /** @constant */
                                    outcome: "revoked";
                                }[];
                                keys: {
                                    id: string;
                                    name: string;
                                    /** @enum {string} */
                                    outcome: "revoked" | "transferred" | "disabled";
                                }[];
                                webhooks: {
                                    id: string;
                                    /** @enum {string} */
                                    outcome: "revoked" | "transferred" | "disabled";
                                    url: string;
                                }[];
                            };
                            email: string | null;
                            id: string;
                            userId: string;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationsIdInvitations: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            email: string | null;
                            expiresAt: string;
                            id: string;
                            /** @enum {string} */
                            role: "admin" | "editor" | "viewer";
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postOrganizationsIdInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "viewer",
                 *       "email": "eve@example.com"
                 *     }
                 */
                "application/json": {
                    email?: string | null;
                    /** @enum {string} */
                    role: "admin" | "editor" | "viewer";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            email: string | null;
                            expiresAt: string;
                            id: string;
                            /** @enum {string} */
                            role: "admin" | "editor" | "viewer";
                            token: string;
                            url: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrganizationsIdInvitationsInvitationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            id: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationsIdMembers: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            email: string;
                            name: string | null;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin" | "owner";
                            userId: string;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrganizationsIdMembersUserId: {
        parameters: {
            query?: {
                created?: "revoke" | "transfer";
            };
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created: {
                                invitations: {
                                    email: string | null;
                                    id: string;
                                    /** @constant */
                                    outcome: "revoked";
                                }[];
                                keys: {
                                    id: string;
                                    name: string;
                                    /** @enum {string} */
                                    outcome: "revoked" | "transferred" | "disabled";
                                }[];
                                webhooks: {
                                    id: string;
                                    /** @enum {string} */
                                    outcome: "revoked" | "transferred" | "disabled";
                                    url: string;
                                }[];
                            };
                            /** @constant */
                            removed: true;
                            userId: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchOrganizationsIdMembersUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "editor"
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    role: "admin" | "editor" | "viewer";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            email: string;
                            name: string | null;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin" | "owner";
                            userId: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationsIdMembersUserIdCreated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            invitations: {
                                email: string | null;
                                expiresAt: string;
                                id: string;
                                role: string;
                            }[];
                            keys: {
                                id: string;
                                last4: string;
                                name: string;
                            }[];
                            webhooks: {
                                enabled: boolean;
                                id: string;
                                url: string;
                            }[];
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postOrganizationsIdTransfer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "userId": "usr_0000000000000000000"
                 *     }
                 */
                "application/json": {
                    userId: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            owner: {
                                createdAt: string;
                                email: string;
                                name: string | null;
                                /** @enum {string} */
                                role: "viewer" | "editor" | "admin" | "owner";
                                userId: string;
                            };
                            previousOwner: {
                                createdAt: string;
                                email: string;
                                name: string | null;
                                /** @enum {string} */
                                role: "viewer" | "editor" | "admin" | "owner";
                                userId: string;
                            };
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            configured: boolean;
                            defaultBaseUrl: string | null;
                            defaultModel: string | null;
                            /** @enum {string} */
                            provider: "extractive" | "openai" | "anthropic";
                        }[];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            description: string | null;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            updatedAt: string;
                            url: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/parley",
                 *       "events": [
                 *         "message.received"
                 *       ],
                 *       "description": "CRM"
                 *     }
                 */
                "application/json": {
                    assistantId?: string | null;
                    description?: string | null;
                    events: ("*" | "conversation.started" | "conversation.ended" | "message.received" | "message.sent" | "conversation.created" | "conversation.message.created" | "knowledge_base.updated" | "app.deployment.updated")[];
                    url: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            description: string | null;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            secret: string;
                            updatedAt: string;
                            url: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            description: string | null;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            updatedAt: string;
                            url: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            id: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchWebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "CRM (staging)",
                 *       "enabled": true
                 *     }
                 */
                "application/json": {
                    assistantId?: string | null;
                    description?: string | null;
                    enabled?: boolean;
                    events?: ("*" | "conversation.started" | "conversation.ended" | "message.received" | "message.sent" | "conversation.created" | "conversation.message.created" | "knowledge_base.updated" | "app.deployment.updated")[];
                    url?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            assistantId: string | null;
                            createdAt: string;
                            /** @description The member who created it; null when unknown (created before this was recorded) */
                            createdBy: {
                                email: string | null;
                                name: string | null;
                                userId: string;
                            } | null;
                            description: string | null;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            updatedAt: string;
                            url: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksIdDeliveries: {
        parameters: {
            query?: {
                /** @description Items per page, 1..100 */
                limit?: number;
                /** @description Page number, from 1 */
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            attempt: number;
                            attemptedAt: string;
                            error: string | null;
                            event: string;
                            id: string;
                            latencyMs: number;
                            nextRetryAt: string | null;
                            responseCode: number | null;
                            /** @enum {string} */
                            status: "succeeded" | "failed";
                            webhookId: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        pagination: components["schemas"]["Pagination"];
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksIdDeliveriesDeliveryIdRedeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deliveryId: string;
                            endpointId: string;
                            event: string;
                            eventId: string;
                            nextAttemptAt: string;
                            /** @constant */
                            status: "pending";
                            webhookId: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            endpointId: string;
                            /** @constant */
                            event: "webhook.test";
                            status: string;
                            webhookId: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    optionsWidgetAppIdRest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                /** @description wildcard: any path below the assistant */
                rest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWidgetAppIdChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "Do you ship to Canada?"
                 *     }
                 */
                "application/json": {
                    message: string;
                    sessionId?: string;
                    stream?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            confidence: number;
                            fallback: unknown;
                            handoff: unknown;
                            messageId: string;
                            response: string;
                            sessionId: string;
                            sources: ({
                                title: string;
                                url: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            suggestions: unknown;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWidgetAppIdConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            appId: string;
                            avatarUrl: string | null;
                            collectFeedback: boolean;
                            colors: unknown;
                            /**
                             * @description Text direction of the assistant's language (rtl for ar, he, fa, ur, …)
                             * @enum {string}
                             */
                            dir: "ltr" | "rtl";
                            handoff: {
                                email: string | null;
                                enabled: boolean;
                                message: string;
                                url: string | null;
                            };
                            iconUrl: string | null;
                            initialState: string;
                            language: string;
                            name: string;
                            position: string;
                            /** @description The widget's texts in the assistant's language (English when Parley has none for it); `{name}` is the assistant's name */
                            strings: {
                                close: string;
                                contactPage: string;
                                dialog: string;
                                error: string;
                                forbidden: string;
                                handoffRequested: string;
                                helpful: string;
                                inputLabel: string;
                                invalid: string;
                                needHelp: string;
                                newConversation: string;
                                notFound: string;
                                notHelpful: string;
                                offline: string;
                                open: string;
                                placeholder: string;
                                rateLimited: string;
                                retry: string;
                                send: string;
                                sources: string;
                                subtitle: string;
                                suggestions: string;
                                supportTeam: string;
                                talkToHuman: string;
                                wasHelpful: string;
                            };
                            theme: string;
                            welcomeMessage: string;
                        } & {
                            [key: string]: unknown;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWidgetAppIdConversationsSessionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            messages: ({
                                content: string;
                                id: string;
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                role: "user" | "assistant" | "human_agent";
                                /** @description ISO 8601 UTC */
                                timestamp: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            sessionId: string;
                            status: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWidgetAppIdFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sessionId": "ws_0123456789abcdefghijABCDEFGHIJ01",
                 *       "messageId": "msg_1",
                 *       "rating": "up"
                 *     }
                 */
                "application/json": {
                    comment?: string;
                    messageId: string;
                    /** @enum {string} */
                    rating: "up" | "down";
                    sessionId: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            messageId: string;
                            /** @enum {string} */
                            rating: "up" | "down";
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWidgetAppIdHandoff: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sessionId": "ws_0123456789abcdefghijABCDEFGHIJ01",
                 *       "email": "visitor@example.com",
                 *       "note": "Order 1234"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email?: string;
                    note?: string;
                    sessionId: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            message: string;
                            /** @constant */
                            requested: true;
                            sessionId: string;
                        };
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
