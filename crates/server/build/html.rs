//! HTML pages: the files a page names (the `src` and `href` of its elements), rewritten to their
//! new names, and the classic scripts marked `data-inline` written into the page. The pages are
//! small and not minified: compression takes what whitespace there is.

use std::ops::Range;

/// An attribute of a start tag: its name (lower case), and where its value is in the page.
struct Attr {
    name: String,
    value: Range<usize>,
}

/// A start tag: its name (lower case), its attributes, and where the element is in the page
/// (from its `<` to the end of its end tag, for a script or a style; else of its start tag).
struct Tag {
    name: String,
    attrs: Vec<Attr>,
    element: Range<usize>,
}

impl Tag {
    fn attr<'t>(&self, text: &'t str, name: &str) -> Option<&'t str> {
        self.attrs
            .iter()
            .find(|a| a.name == name)
            .map(|a| &text[a.value.clone()])
    }

    fn is_module_script(&self, text: &str) -> bool {
        self.name == "script" && self.attr(text, "type") == Some("module")
    }
}

/// The start tags of a page, in order, outside comments and the text of scripts and styles.
fn tags(text: &str) -> Vec<Tag> {
    let bytes = text.as_bytes();
    let mut tags = Vec::new();
    let mut i = 0;
    while let Some(offset) = text[i..].find('<') {
        let start = i + offset;
        if text[start..].starts_with("<!--") {
            i = text[start..]
                .find("-->")
                .map_or(text.len(), |e| start + e + 3);
            continue;
        }
        let name_start = start + 1;
        if !bytes.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            // An end tag, `<!doctype>`, or a `<` in text.
            i = name_start;
            continue;
        }
        let name_end = text[name_start..]
            .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
            .map_or(text.len(), |n| name_start + n);
        let name = text[name_start..name_end].to_ascii_lowercase();
        let (attrs, end) = attributes(text, name_end);
        // The text of a script or a style is not markup: go on after its end tag.
        i = if name == "script" || name == "style" {
            let close = format!("</{name}");
            let at = text[end..]
                .to_ascii_lowercase()
                .find(&close)
                .map_or(text.len(), |n| end + n);
            text[at..].find('>').map_or(text.len(), |n| at + n + 1)
        } else {
            end
        };
        tags.push(Tag {
            name,
            attrs,
            element: start..i,
        });
    }
    tags
}

/// The attributes of a start tag from `i` on, and where the tag ends (after its `>`).
fn attributes(text: &str, mut i: usize) -> (Vec<Attr>, usize) {
    let bytes = text.as_bytes();
    let skip = |i: &mut usize, f: &dyn Fn(u8) -> bool| {
        while *i < bytes.len() && f(bytes[*i]) {
            *i += 1;
        }
    };
    let mut attrs = Vec::new();
    loop {
        skip(&mut i, &|b| b.is_ascii_whitespace() || b == b'/');
        if i >= bytes.len() {
            return (attrs, i);
        }
        if bytes[i] == b'>' {
            return (attrs, i + 1);
        }
        let name_start = i;
        skip(&mut i, &|b| {
            !(b.is_ascii_whitespace() || b == b'=' || b == b'>' || b == b'/')
        });
        let name = text[name_start..i].to_ascii_lowercase();
        skip(&mut i, &|b| b.is_ascii_whitespace());
        let mut value = i..i;
        if bytes.get(i) == Some(&b'=') {
            i += 1;
            skip(&mut i, &|b| b.is_ascii_whitespace());
            match bytes.get(i) {
                Some(&quote) if quote == b'"' || quote == b'\'' => {
                    let close = text[i + 1..]
                        .find(quote as char)
                        .map_or(text.len(), |n| i + 1 + n);
                    value = i + 1..close;
                    i = (close + 1).min(text.len());
                }
                _ => {
                    let start = i;
                    skip(&mut i, &|b| !(b.is_ascii_whitespace() || b == b'>'));
                    value = start..i;
                }
            }
        }
        attrs.push(Attr { name, value });
    }
}

/// The scripts a page loads (`<script src>`), each with whether it is a module.
pub fn scripts(text: &str) -> Vec<(String, bool)> {
    tags(text)
        .iter()
        .filter(|t| t.name == "script")
        .filter_map(|t| Some((t.attr(text, "src")?.to_owned(), t.is_module_script(text))))
        .collect()
}

/// Every `src` and `href` in a page, each with whether it is a module script (bundled with
/// its imports).
pub fn references(text: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    for tag in tags(text) {
        for attr in tag
            .attrs
            .iter()
            .filter(|a| a.name == "src" || a.name == "href")
        {
            let module = attr.name == "src" && tag.is_module_script(text);
            found.push((text[attr.value.clone()].to_owned(), module));
        }
    }
    found
}

/// The page with its references replaced by `rewritten(spec)` where that is `Some`, and each
/// `<script src="…" data-inline>` replaced by `<script>{inline(spec)}</script>`: a script the
/// page needs before anything else, written into it to save a round trip (the content
/// security policy allows it by its hash).
pub fn render(
    path: &str,
    text: &str,
    rewritten: &dyn Fn(&str) -> Option<String>,
    inline: &dyn Fn(&str) -> String,
) -> String {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    for tag in tags(text) {
        if tag.name == "script" && tag.attrs.iter().any(|a| a.name == "data-inline") {
            let spec = tag.attr(text, "src");
            let spec =
                spec.unwrap_or_else(|| panic!("{path}: data-inline on a script with no src"));
            assert!(
                !tag.is_module_script(text),
                "{path}: {spec}: only a classic script is inlined"
            );
            let script = inline(spec);
            assert!(
                !script.contains("</script"),
                "{path}: {spec} holds </script"
            );
            edits.push((tag.element.clone(), format!("<script>{script}</script>")));
            continue;
        }
        for attr in tag
            .attrs
            .iter()
            .filter(|a| a.name == "src" || a.name == "href")
        {
            if let Some(url) = rewritten(&text[attr.value.clone()]) {
                assert!(
                    !url.contains(['"', '\'', '<', '>', '&', ' ']),
                    "{path}: {url}"
                );
                edits.push((attr.value.clone(), url));
            }
        }
    }
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut page = text.to_owned();
    for (range, with) in edits {
        page.replace_range(range, &with);
    }
    page
}
