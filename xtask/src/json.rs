//! A small, strict JSON parser: just enough to read `cargo metadata` output without dependencies.

use std::fmt;

/// The deepest nesting of arrays and objects accepted, so that hostile input cannot overflow the stack.
const MAX_DEPTH: usize = 256;

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, kept as its source text: xtask never does arithmetic, so it never rounds.
    Number(String),
    /// A string, with its escapes decoded.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, with its members in source order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member named `key` of an object; `None` when the key is missing or `self` is not an object.
    ///
    /// When a key appears more than once, the first occurrence wins.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    /// The text of a string; `None` for any other kind of value.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// The items of an array; `None` for any other kind of value.
    pub(crate) fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// Why a text is not valid JSON, and where the parser noticed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// The byte offset in the input at which parsing stopped.
    offset: usize,
    /// What was wrong there.
    message: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "invalid JSON at byte {}: {}",
            self.offset, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses `text` as exactly one JSON value (RFC 8259), surrounded by optional whitespace.
pub(crate) fn parse(text: &str) -> Result<Value, ParseError> {
    let mut parser = Parser { text, position: 0 };
    parser.skip_whitespace();
    let value = parser.parse_value(0)?;
    parser.skip_whitespace();
    if parser.position != text.len() {
        return Err(parser.error("trailing characters after the value"));
    }
    Ok(value)
}

/// A recursive-descent parser over the input text.
struct Parser<'text> {
    /// The whole input.
    text: &'text str,
    /// The byte offset of the next unread byte; always on a character boundary.
    position: usize,
}

impl Parser<'_> {
    /// An error at the current position.
    fn error(&self, message: &'static str) -> ParseError {
        ParseError {
            offset: self.position,
            message,
        }
    }

    /// The next unread byte, if any.
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.position).copied()
    }

    /// Skips the four whitespace characters JSON allows between tokens.
    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.position += 1;
        }
    }

    /// Consumes `expected` or fails with `message`.
    fn expect(&mut self, expected: u8, message: &'static str) -> Result<(), ParseError> {
        if self.peek() == Some(expected) {
            self.position += 1;
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    /// Parses the value that starts at the current position, nested `depth` containers deep.
    fn parse_value(&mut self, depth: usize) -> Result<Value, ParseError> {
        match self.peek() {
            None => Err(self.error("unexpected end of input, expected a value")),
            Some(b'n') => self.parse_literal("null", Value::Null),
            Some(b't') => self.parse_literal("true", Value::Bool(true)),
            Some(b'f') => self.parse_literal("false", Value::Bool(false)),
            Some(b'"') => self.parse_string().map(Value::String),
            Some(b'[') => self.parse_array(depth),
            Some(b'{') => self.parse_object(depth),
            Some(b'-' | b'0'..=b'9') => self.parse_number(),
            Some(_) => Err(self.error("expected a value")),
        }
    }

    /// Parses the keyword `literal`, which stands for `value`.
    fn parse_literal(&mut self, literal: &'static str, value: Value) -> Result<Value, ParseError> {
        if self.text[self.position..].starts_with(literal) {
            self.position += literal.len();
            Ok(value)
        } else {
            Err(self.error("expected 'null', 'true' or 'false'"))
        }
    }

    /// Parses an array; the current byte is its `[`.
    fn parse_array(&mut self, depth: usize) -> Result<Value, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.error("arrays and objects nested too deeply"));
        }
        self.position += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.position += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.parse_value(depth + 1)?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.position += 1,
                Some(b']') => {
                    self.position += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']' in an array")),
            }
        }
    }

    /// Parses an object; the current byte is its `{`.
    fn parse_object(&mut self, depth: usize) -> Result<Value, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.error("arrays and objects nested too deeply"));
        }
        self.position += 1;
        let mut members = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.position += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a string key in an object"));
            }
            let key = self.parse_string()?;
            self.skip_whitespace();
            self.expect(b':', "expected ':' after an object key")?;
            self.skip_whitespace();
            let value = self.parse_value(depth + 1)?;
            members.push((key, value));
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.position += 1,
                Some(b'}') => {
                    self.position += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}' in an object")),
            }
        }
    }

    /// Consumes a run of ASCII digits and returns how many there were.
    fn skip_digits(&mut self) -> usize {
        let start = self.position;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.position += 1;
        }
        self.position - start
    }

    /// Parses a number, whose grammar is `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    fn parse_number(&mut self) -> Result<Value, ParseError> {
        let start = self.position;
        if self.peek() == Some(b'-') {
            self.position += 1;
        }
        match self.peek() {
            Some(b'0') => self.position += 1,
            Some(b'1'..=b'9') => {
                self.skip_digits();
            }
            _ => return Err(self.error("expected a digit in a number")),
        }
        if self.peek() == Some(b'.') {
            self.position += 1;
            if self.skip_digits() == 0 {
                return Err(self.error("expected a digit after the decimal point"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.position += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.position += 1;
            }
            if self.skip_digits() == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        Ok(Value::Number(self.text[start..self.position].to_owned()))
    }

    /// Parses a string; the current byte is its opening quote.
    fn parse_string(&mut self) -> Result<String, ParseError> {
        self.position += 1;
        let mut decoded = String::new();
        loop {
            // Copy a run of plain characters at once. The run stops only at ASCII bytes,
            // so both ends of the slice fall on character boundaries.
            let start = self.position;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.position += 1;
            }
            decoded.push_str(&self.text[start..self.position]);
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.position += 1;
                    return Ok(decoded);
                }
                Some(b'\\') => {
                    self.position += 1;
                    decoded.push(self.parse_escape()?);
                }
                Some(_) => return Err(self.error("unescaped control character in a string")),
            }
        }
    }

    /// Parses the escape sequence after a backslash and returns the character it stands for.
    fn parse_escape(&mut self) -> Result<char, ParseError> {
        let Some(byte) = self.peek() else {
            return Err(self.error("unterminated escape sequence"));
        };
        self.position += 1;
        match byte {
            b'"' => Ok('"'),
            b'\\' => Ok('\\'),
            b'/' => Ok('/'),
            b'b' => Ok('\u{8}'),
            b'f' => Ok('\u{c}'),
            b'n' => Ok('\n'),
            b'r' => Ok('\r'),
            b't' => Ok('\t'),
            b'u' => self.parse_unicode_escape(),
            _ => {
                self.position -= 1;
                Err(self.error("invalid escape sequence"))
            }
        }
    }

    /// Parses the digits of a `\u` escape, combining a UTF-16 surrogate pair into one character.
    fn parse_unicode_escape(&mut self) -> Result<char, ParseError> {
        let first = self.parse_hex4()?;
        let code_point = match first {
            0xD800..=0xDBFF => {
                if !self.text[self.position..].starts_with("\\u") {
                    return Err(self.error("high surrogate not followed by a low surrogate"));
                }
                self.position += 2;
                let second = self.parse_hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error("high surrogate not followed by a low surrogate"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.error("low surrogate without a high surrogate")),
            _ => first,
        };
        char::from_u32(code_point).ok_or_else(|| self.error("invalid code point"))
    }

    /// Parses exactly four hexadecimal digits.
    fn parse_hex4(&mut self) -> Result<u32, ParseError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|byte| char::from(byte).to_digit(16))
                .ok_or_else(|| self.error("expected four hexadecimal digits after '\\u'"))?;
            value = value * 16 + digit;
            self.position += 1;
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::{Value, parse};

    /// A shorthand for a string value.
    fn string(text: &str) -> Value {
        Value::String(text.to_owned())
    }

    /// A shorthand for a number value.
    fn number(text: &str) -> Value {
        Value::Number(text.to_owned())
    }

    #[test]
    fn parses_scalars() {
        assert_eq!(parse("null"), Ok(Value::Null));
        assert_eq!(parse("true"), Ok(Value::Bool(true)));
        assert_eq!(parse(" false\n"), Ok(Value::Bool(false)));
        assert_eq!(parse("\"hi\""), Ok(string("hi")));
        for text in ["0", "-0", "12", "-3.25", "1e5", "1E+5", "6.02e-23", "0.5"] {
            assert_eq!(parse(text), Ok(number(text)), "{text}");
        }
    }

    #[test]
    fn parses_nested_containers_in_order() {
        let value = parse(r#" { "a" : [1, {"b": null}, []], "c": {}, "a": "second" } "#);
        let expected = Value::Object(vec![
            (
                "a".to_owned(),
                Value::Array(vec![
                    number("1"),
                    Value::Object(vec![("b".to_owned(), Value::Null)]),
                    Value::Array(vec![]),
                ]),
            ),
            ("c".to_owned(), Value::Object(vec![])),
            ("a".to_owned(), string("second")),
        ]);
        assert_eq!(value, Ok(expected));
    }

    #[test]
    fn accessors_find_members_and_items() {
        let value = parse(r#"{"name": "rl-core", "list": [true], "name": "ignored"}"#)
            .expect("the test input is valid JSON");
        assert_eq!(value.get("name").and_then(Value::as_str), Some("rl-core"));
        assert_eq!(
            value.get("list").and_then(Value::as_array),
            Some(&[Value::Bool(true)][..])
        );
        assert_eq!(value.get("missing"), None);
        assert_eq!(value.get("list").and_then(Value::as_str), None);
        assert_eq!(string("x").get("name"), None);
    }

    #[test]
    fn decodes_escapes() {
        assert_eq!(
            parse(r#""q\" b\\ s\/ \b\f\n\r\t""#),
            Ok(string("q\" b\\ s/ \u{8}\u{c}\n\r\t"))
        );
        assert_eq!(parse(r#""\u00e9\u4E2D""#), Ok(string("é中")));
        assert_eq!(parse(r#""\ud83e\udd80""#), Ok(string("🦀")));
        assert_eq!(parse("\"déjà 🦀\""), Ok(string("déjà 🦀")));
    }

    #[test]
    fn rejects_invalid_input() {
        let invalid = [
            "",
            "   ",
            "nul",
            "True",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "+1",
            "\"open",
            "\"tab\there\"",
            r#""\x""#,
            r#""\u12""#,
            r#""\ud83e""#,
            r#""\ud83e\u0041""#,
            r#""\udd80""#,
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "{a: 1}",
            "[",
            "{}}",
            "1 2",
        ];
        for text in invalid {
            assert!(parse(text).is_err(), "accepted invalid JSON {text:?}");
        }
    }

    #[test]
    fn reports_the_offset_of_an_error() {
        let error = parse("[1, x]").expect_err("the input is invalid");
        assert_eq!(
            error.to_string(),
            "invalid JSON at byte 4: expected a value"
        );
    }

    #[test]
    fn limits_nesting_depth() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert!(parse(&deep).is_err());
        let shallow = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&shallow).is_ok());
    }
}
