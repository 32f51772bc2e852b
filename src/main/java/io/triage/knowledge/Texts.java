package io.triage.knowledge;

import io.triage.facts.Detail;
import io.triage.facts.Symptom;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The words shown to people, by id, from {@code knowledge-base/texts.yaml}: each symptom's sentence, each rule's
 * rationale (by rule name), the templates of symptom details and the reasons of refutations and exclusions. Rules
 * name ids and pass values ({@link Detail}); the words are put together here, so an author edits wording in one
 * place and no rule carries English.
 *
 * <p>A template is text with {@code {name}} for a value and {@code [ … ]} around a part that is left out when a
 * value in it is missing or empty ({@code PID {pid} ({role}[, {server}])}). Values are put in as they are, in
 * one pass: a value is never read as a template, whatever it holds (a log line with braces stays a log line).
 */
public final class Texts {
    private final Map<String, String> symptoms;
    private final Map<String, String> rationales;
    private final Map<String, String> details;
    private final Map<String, String> reasons;

    public Texts(Map<String, String> symptoms, Map<String, String> rationales, Map<String, String> details,
                 Map<String, String> reasons) {
        this.symptoms = copy(symptoms);
        this.rationales = copy(rationales);
        this.details = copy(details);
        this.reasons = copy(reasons);
    }

    private static Map<String, String> copy(Map<String, String> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    public Map<String, String> symptoms() {
        return symptoms;
    }

    /** Rule name to its rationale. */
    public Map<String, String> rationales() {
        return rationales;
    }

    /** Symptom id (or {@code id.variant}) to the template of its detail. */
    public Map<String, String> details() {
        return details;
    }

    /** Reason id to its template (refutations and exclusions). */
    public Map<String, String> reasons() {
        return reasons;
    }

    /** The rule's rationale, or empty (the consistency check refuses a rule without one). */
    public String rationale(String rule) {
        return rationales.getOrDefault(rule, "");
    }

    /** The template key of a symptom's detail: its id, or {@code id.variant}. */
    public static String detailKey(Symptom s) {
        return s.detail().key().isEmpty() ? s.id() : s.id() + "." + s.detail().key();
    }

    /** The symptom's detail in words, or empty when it has none. */
    public String detail(Symptom s) {
        if (s.detail().isEmpty()) {
            return "";
        }
        String t = details.get(detailKey(s));
        return t == null ? plain(s.detail()) : render(t, s.detail().params());
    }

    /** A reason in words (a refutation's or an exclusion's). */
    public String reason(Detail d) {
        String t = reasons.get(d.key());
        return t == null ? plain(d) : render(t, d.params());
    }

    /** The values with no template to put them in (a knowledge base the check was not run on): still readable. */
    private String plain(Detail d) {
        StringBuilder b = new StringBuilder(d.key());
        d.params().forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(value(v)));
        return b.toString();
    }

    private String value(Object v) {
        return v instanceof Symptom s ? detail(s) : String.valueOf(v);
    }

    /** Fills {@code template} with {@code params} (see the class comment). */
    public String render(String template, Map<String, Object> params) {
        StringBuilder out = new StringBuilder(template.length() + 32);
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '[') {
                int end = template.indexOf(']', i + 1);
                if (end > 0) {
                    StringBuilder part = new StringBuilder();
                    if (fill(template, i + 1, end, params, part, true)) {
                        out.append(part);
                    }
                    i = end + 1;
                    continue;
                }
            }
            int next = nextGroup(template, i);
            fill(template, i, next, params, out, false);
            i = next;
        }
        return out.toString();
    }

    private static int nextGroup(String t, int from) {
        int at = t.indexOf('[', t.charAt(from) == '[' ? from + 1 : from);
        return at < 0 ? t.length() : at;
    }

    /** Appends {@code template[from, to)} filled; false when an optional part has a missing or empty value. */
    private boolean fill(String template, int from, int to, Map<String, Object> params, StringBuilder out,
                         boolean optional) {
        int i = from;
        while (i < to) {
            char c = template.charAt(i);
            int close = c == '{' ? template.indexOf('}', i + 1) : -1;
            if (close > i && close < to) {
                String name = template.substring(i + 1, close);
                Object v = params.get(name);
                String s = v == null ? null : value(v);
                if (s == null || s.isEmpty()) {
                    if (optional) {
                        return false;
                    }
                    out.append(v == null ? "{" + name + "}" : "");
                } else {
                    out.append(s);
                }
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return true;
    }
}
