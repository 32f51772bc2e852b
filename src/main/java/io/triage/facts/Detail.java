package io.triage.facts;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values a derived fact shows a person, without the words: a rule names them ({@code Detail.of("code",
 * $h.httpCode(), "seconds", $h.seconds())}) and the text layer puts them into the fact's template from
 * {@code knowledge-base/texts.yaml} ({@code HTTP {code} in {seconds} s}), so wording lives in one place and the
 * rules carry no English. {@code key} names the template: for a symptom, empty means the symptom's own id and a
 * word names one of its variants ({@code id.word}); for a refutation or an exclusion it is the id of the reason.
 *
 * @param params each value as the rule gave it, made a string ({@link String#valueOf}) — or another symptom, whose
 *               detail is rendered in its place
 */
public record Detail(String key, Map<String, Object> params) {
    /** No values: a symptom whose sentence says it all. */
    public static final Detail NONE = new Detail("", Map.of());

    public Detail {
        key = key == null ? "" : key;
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /** The symptom's own template, with {@code name, value} pairs. */
    public static Detail of(Object... nameValue) {
        return as("", nameValue);
    }

    /** The template {@code key}, with {@code name, value} pairs. */
    public static Detail as(String key, Object... nameValue) {
        if (nameValue.length % 2 != 0) {
            throw new IllegalArgumentException("Detail needs name, value pairs, got " + nameValue.length + " arguments");
        }
        Map<String, Object> p = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            Object v = nameValue[i + 1];
            p.put(String.valueOf(nameValue[i]), v instanceof Symptom ? v : String.valueOf(v));
        }
        return new Detail(key, p);
    }

    public boolean isEmpty() {
        return key.isEmpty() && params.isEmpty();
    }

    /** A plain form for labels and logs where no template is at hand: the key and its values. */
    @Override
    public String toString() {
        return (key.isEmpty() ? "" : key) + (params.isEmpty() ? "" : (key.isEmpty() ? "" : " ") + params);
    }
}
