package io.triage.chat;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** The page of a diagnosis that a chat message links to: an absolute http(s) URL, checked once. */
final class PageLink {
    private PageLink() {
    }

    /**
     * @param link the page's address, or null or blank when the server has no public URL
     * @return the address in ASCII form (no spaces, quotes, angle brackets or pipes), or null when none
     * @throws IllegalArgumentException when the address is not an absolute http or https URL
     */
    static String checked(String link) {
        if (link == null || link.isBlank()) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(link.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the diagnosis page link is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException("the diagnosis page link must be an absolute http(s) URL with a host");
        }
        String ascii = uri.toASCIIString();
        for (int i = 0; i < ascii.length(); i++) {
            char c = ascii.charAt(i);
            if (c <= ' ' || c >= 0x7F || c == '<' || c == '>' || c == '|' || c == '"' || c == '`') {
                throw new IllegalArgumentException("the diagnosis page link holds a character a chat link cannot carry");
            }
        }
        return ascii;
    }
}
