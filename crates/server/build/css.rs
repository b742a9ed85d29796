//! Style sheets: the files a sheet names (`url()`, `@import`), and the sheet minified
//! (lightningcss) with those names rewritten.

use lightningcss::rules::CssRule;
use lightningcss::stylesheet::{MinifyOptions, ParserOptions, PrinterOptions, StyleSheet};
use lightningcss::values::url::Url;
use lightningcss::visit_types;
use lightningcss::visitor::{Visit, VisitTypes, Visitor};
use std::convert::Infallible;

/// Reads or rewrites every `url()` and `@import` of a sheet.
struct Urls<'f> {
    found: Vec<String>,
    rewritten: &'f dyn Fn(&str) -> Option<String>,
}

impl Urls<'_> {
    fn see(&mut self, url: &str) -> Option<String> {
        self.found.push(url.to_owned());
        (self.rewritten)(url)
    }
}

impl<'i> Visitor<'i> for Urls<'_> {
    type Error = Infallible;

    fn visit_types(&self) -> VisitTypes {
        visit_types!(URLS | RULES)
    }

    fn visit_url(&mut self, url: &mut Url<'i>) -> Result<(), Infallible> {
        if let Some(new) = self.see(&url.url) {
            url.url = new.into();
        }
        Ok(())
    }

    fn visit_rule(&mut self, rule: &mut CssRule<'i>) -> Result<(), Infallible> {
        if let CssRule::Import(import) = rule
            && let Some(new) = self.see(&import.url)
        {
            import.url = new.into();
        }
        rule.visit_children(self)
    }
}

fn parse<'i>(path: &str, text: &'i str) -> StyleSheet<'i> {
    let options = ParserOptions {
        filename: path.to_owned(),
        ..ParserOptions::default()
    };
    StyleSheet::parse(text, options).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every `url()` and `@import` in the sheet, as written.
pub fn references(path: &str, text: &str) -> Vec<String> {
    let mut sheet = parse(path, text);
    let mut urls = Urls {
        found: Vec::new(),
        rewritten: &|_| None,
    };
    let Ok(()) = sheet.visit(&mut urls);
    urls.found
}

/// The sheet minified, each url replaced by `rewritten(url)` where that is `Some`. No browser
/// targets are given, so nothing is lowered or prefixed: the rules stay as written.
pub fn render(path: &str, text: &str, rewritten: &dyn Fn(&str) -> Option<String>) -> String {
    let mut sheet = parse(path, text);
    let mut urls = Urls {
        found: Vec::new(),
        rewritten,
    };
    let Ok(()) = sheet.visit(&mut urls);
    sheet
        .minify(MinifyOptions::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let options = PrinterOptions {
        minify: true,
        ..PrinterOptions::default()
    };
    sheet
        .to_css(options)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .code
}
