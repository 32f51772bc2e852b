package io.triage.chat;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checkers written from the formats' specifications, independent of the renderers: CommonMark fenced
 * code blocks, and Slack's Block Kit limits (blocks, types, required fields, text lengths).
 */
final class ChatChecks {
    /** Slack's documented limits, kept here apart from the renderer's constants on purpose. */
    static final int BLOCKS = 50;
    static final int SECTION_TEXT = 3000;
    static final int HEADER_TEXT = 150;
    static final int CONTEXT_ELEMENTS = 10;
    static final int FIELDS = 10;
    static final int FIELD_TEXT = 2000;
    private static final Set<String> BLOCK_TYPES = Set.of("header", "section", "context", "divider", "actions");
    private static final Pattern FENCE_OPEN = Pattern.compile("^ {0,3}(`{3,}|~{3,})(.*)$");

    private ChatChecks() {
    }

    /** A markdown document cut into prose and fenced code blocks, or the reason it is not well formed. */
    record Markdown(String prose, List<String> codeBlocks, List<String> problems) {
    }

    static Markdown markdown(String md) {
        StringBuilder prose = new StringBuilder();
        List<String> blocks = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String fence = null;
        StringBuilder code = null;
        int n = 0;
        for (String line : md.split("\n", -1)) {
            n++;
            if (fence == null) {
                Matcher m = FENCE_OPEN.matcher(line);
                if (m.matches() && !(m.group(1).charAt(0) == '`' && m.group(2).contains("`"))) {
                    fence = m.group(1);
                    code = new StringBuilder();
                } else {
                    prose.append(line).append('\n');
                }
            } else {
                String t = line.strip();
                char f = fence.charAt(0);
                if (t.length() >= fence.length() && t.chars().allMatch(c -> c == f)
                        && line.indexOf(fence.charAt(0)) <= 3) {
                    blocks.add(code.toString());
                    fence = null;
                } else {
                    code.append(code.length() == 0 ? "" : "\n").append(line);
                }
            }
        }
        if (fence != null) {
            problems.add("a code block opened with " + fence + " is never closed");
        }
        return new Markdown(prose.toString(), blocks, problems);
    }

    /** Prose with its code spans taken out (CommonMark: a backtick run closes at the next run of equal length). */
    static String withoutCodeSpans(String prose) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < prose.length()) {
            char c = prose.charAt(i);
            if (c == '\\' && i + 1 < prose.length()) {
                out.append(c).append(prose.charAt(i + 1));
                i += 2;
                continue;
            }
            if (c != '`') {
                out.append(c);
                i++;
                continue;
            }
            int run = 0;
            while (i + run < prose.length() && prose.charAt(i + run) == '`') {
                run++;
            }
            int close = findRun(prose, i + run, run);
            if (close < 0) {
                out.append(prose, i, i + run);
                i += run;
            } else {
                out.append("<code>");
                i = close + run;
            }
        }
        return out.toString();
    }

    private static int findRun(String s, int from, int len) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == '`') {
                int run = 0;
                while (i + run < s.length() && s.charAt(i + run) == '`') {
                    run++;
                }
                if (run == len) {
                    return i;
                }
                i += run;
            } else {
                i++;
            }
        }
        return -1;
    }

    /** Every way the message breaks Block Kit's rules; empty when it is a valid message. */
    static List<String> blockKit(JsonNode msg) {
        List<String> p = new ArrayList<>();
        if (!msg.path("text").isTextual() || msg.path("text").asText().isBlank()) {
            p.add("no fallback text");
        }
        JsonNode blocks = msg.path("blocks");
        if (!blocks.isArray() || blocks.isEmpty()) {
            p.add("no blocks");
            return p;
        }
        if (blocks.size() > BLOCKS) {
            p.add(blocks.size() + " blocks, more than " + BLOCKS);
        }
        for (int i = 0; i < blocks.size(); i++) {
            JsonNode b = blocks.get(i);
            String type = b.path("type").asText("");
            String at = "blocks[" + i + "] (" + type + ")";
            if (!BLOCK_TYPES.contains(type)) {
                p.add(at + ": unknown block type");
                continue;
            }
            switch (type) {
                case "header" -> {
                    JsonNode t = b.path("text");
                    if (!"plain_text".equals(t.path("type").asText())) {
                        p.add(at + ": a header's text must be plain_text");
                    }
                    text(p, at, t, HEADER_TEXT);
                }
                case "section" -> {
                    boolean hasText = b.has("text");
                    JsonNode fields = b.path("fields");
                    if (!hasText && !fields.isArray()) {
                        p.add(at + ": a section needs text or fields");
                    }
                    if (hasText) {
                        textObject(p, at + ".text", b.get("text"), SECTION_TEXT);
                    }
                    if (b.has("fields")) {
                        if (!fields.isArray() || fields.isEmpty() || fields.size() > FIELDS) {
                            p.add(at + ": fields must be 1 to " + FIELDS);
                        } else {
                            for (int f = 0; f < fields.size(); f++) {
                                textObject(p, at + ".fields[" + f + "]", fields.get(f), FIELD_TEXT);
                            }
                        }
                    }
                }
                case "context" -> {
                    JsonNode els = b.path("elements");
                    if (!els.isArray() || els.isEmpty() || els.size() > CONTEXT_ELEMENTS) {
                        p.add(at + ": elements must be 1 to " + CONTEXT_ELEMENTS);
                    } else {
                        for (int e = 0; e < els.size(); e++) {
                            textObject(p, at + ".elements[" + e + "]", els.get(e), SECTION_TEXT);
                        }
                    }
                }
                default -> {
                }
            }
        }
        return p;
    }

    /** Every mrkdwn text of the message, the fallback included. */
    static List<String> mrkdwnTexts(JsonNode msg) {
        List<String> out = new ArrayList<>();
        out.add(msg.path("text").asText());
        for (JsonNode b : msg.path("blocks")) {
            List<JsonNode> objs = new ArrayList<>();
            if (b.has("text")) {
                objs.add(b.get("text"));
            }
            b.path("fields").forEach(objs::add);
            b.path("elements").forEach(objs::add);
            for (JsonNode o : objs) {
                if ("mrkdwn".equals(o.path("type").asText())) {
                    out.add(o.path("text").asText());
                }
            }
        }
        return out;
    }

    private static void textObject(List<String> p, String at, JsonNode t, int max) {
        String type = t.path("type").asText("");
        if (!type.equals("mrkdwn") && !type.equals("plain_text")) {
            p.add(at + ": a text object's type must be mrkdwn or plain_text");
        }
        text(p, at, t, max);
        if (type.equals("mrkdwn")) {
            String s = t.path("text").asText();
            int fences = s.split("```", -1).length - 1;
            if (fences % 2 != 0) {
                p.add(at + ": an unclosed ``` block");
            }
        }
    }

    private static void text(List<String> p, String at, JsonNode t, int max) {
        if (!t.path("text").isTextual() || t.path("text").asText().isEmpty()) {
            p.add(at + ": no text");
        } else if (t.path("text").asText().length() > max) {
            p.add(at + ": text of " + t.path("text").asText().length() + " characters, more than " + max);
        }
    }
}
