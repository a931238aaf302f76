//! Identifier splitting: separators make whole words, case boundaries make parts.

use toolsift_text::Analyzer;

use crate::check;

#[test]
fn real_tool_names() {
    check("API-post-search", "api post search");
    check("linear_getIssues", "linear getissues +get +issues");
    check(
        "bitable_v1_appTableRecord_batchCreate",
        "bitable v1 apptablerecord +app +table +record batchcreate +batch +create",
    );
    check("get_me", "get me");
    check("kubectl_get", "kubectl get");
    check("chat_postMessage", "chat postmessage +post +message");
    check("GET /repos/{owner}/{repo}/pulls", "get repos owner repo pulls");
    check("brave_web_search", "brave web search");
    check("get-tiny-image", "get tiny image");
    check("mcp__github__create_issue", "mcp github create issue");
    check("confluence_search", "confluence search");
}

#[test]
fn case_boundaries() {
    check("getIssue", "getissue +get +issue");
    check("HTTPServer", "httpserver +http +server");
    check("GitHub", "github +git +hub");
    check("getHTTPResponseCode", "gethttpresponsecode +get +http +response +code");
    check("iPhone", "iphone +i +phone");
    check("XMLHttpRequest", "xmlhttprequest +xml +http +request");
    check("ALLCAPS", "allcaps");
    check("Capitalized", "capitalized");
    check("lowercase", "lowercase");
}

#[test]
fn acronym_plurals_stay_whole() {
    check("getIDs", "getids +get +ids");
    check("listURLs", "listurls +list +urls");
    check("URLsList", "urlslist +urls +list");
    check("HTTPSServer", "httpsserver +https +server");
}

#[test]
fn digits_stay_with_the_letters_before_them() {
    check("s3", "s3");
    check("base64", "base64");
    check("oauth2", "oauth2");
    check("v1", "v1");
    check("k8s", "k8s");
    check("v1beta1", "v1beta1");
    check("2fa", "2fa");
    check("K8S", "k8s");
    check("S3Bucket", "s3bucket +s3 +bucket");
    check("base64Encode", "base64encode +base64 +encode");
    check("base64URL", "base64url +base64 +url");
    check("OAuth2Token", "oauth2token +o +auth2 +token");
    check("ipv4Address", "ipv4address +ipv4 +address");
    check("x86_64", "x86 64");
    check("2024-01-31", "2024 01 31");
}

#[test]
fn every_separator_splits() {
    check("a.b,c;d:e!f?g(h)i[j]k{l}m<n>o|p\\q\"r`s~t@u#v$w%x^y&z*0+1=2", {
        "a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2"
    });
    check("user@example.com", "user example com");
    check("https://api.github.com/v3", "https api github com v3");
}

#[test]
fn positions_count_words_and_parts_share_them() {
    let terms = Analyzer::default().analyze("the linear_getIssues tool, then GitHub");
    let seen: Vec<(&str, u32)> = terms.iter().map(|t| (t.word.as_str(), t.position)).collect();
    assert_eq!(
        seen,
        [
            ("linear", 1),
            ("getissues", 2),
            ("get", 2),
            ("issues", 2),
            ("github", 5),
            ("git", 5),
            ("hub", 5),
        ]
    );
}

#[test]
fn whitespace_of_every_kind_separates() {
    check(
        "alpha\tbeta\ngamma\rdelta\u{a0}epsilon\u{3000}zeta\u{2028}eta\u{85}theta",
        "alpha beta gamma delta epsilon zeta eta theta",
    );
    check("", "");
    check(" \t\n ", "");
}
