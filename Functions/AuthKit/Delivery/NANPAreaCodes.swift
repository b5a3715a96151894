/// The countries of the North American Numbering Plan (calling code 1) other than the United
/// States, by area code: Canada, and the Caribbean states and territories that share the plan.
/// A `+1` number whose area code is not listed is the United States', unless its code is
/// non-geographic (toll-free, personal communications, inbound international, Canada's and the
/// plan's own services), which is no country's and never texted. (No phone-number library is
/// available here; this is the part of its data the allow-list needs.)
enum NANPAreaCodes {
    /// Area codes that are no place: texts to them go to services, not to a person's phone.
    static let nonGeographic: Set<String> = [
        "456", "500", "521", "522", "523", "524", "525", "526", "527", "528", "529", "532", "533", "535", "538",
        "542", "543", "544", "545", "546", "547", "549", "550", "552", "553", "554", "556", "558", "566", "569",
        "577", "578", "588", "589", "600", "622", "700", "710", "800", "833", "844", "855", "866", "877", "880",
        "881", "882", "883", "884", "885", "886", "887", "888", "889", "900",
    ]

    static let country: [String: String] = {
        var country: [String: String] = [:]
        for (iso, codes) in byCountry {
            for code in codes { country[code] = iso }
        }
        return country
    }()

    private static let byCountry: [String: [String]] = [
        "CA": [
            "204", "226", "236", "249", "250", "257", "263", "273", "289", "306", "343", "354", "365", "367", "368",
            "382", "387", "403", "416", "418", "428", "431", "437", "438", "450", "460", "468", "474", "506", "514",
            "519", "548", "579", "581", "584", "587", "604", "613", "639", "647", "672", "683", "705", "709", "742",
            "753", "778", "780", "782", "807", "819", "825", "867", "873", "879", "902", "905", "942",
        ],
        "AG": ["268"], "AI": ["264"], "AS": ["684"], "BB": ["246"], "BM": ["441"], "BS": ["242"], "DM": ["767"],
        "DO": ["809", "829", "849"], "GD": ["473"], "GU": ["671"], "JM": ["658", "876"], "KN": ["869"],
        "KY": ["345"], "LC": ["758"], "MP": ["670"], "MS": ["664"], "PR": ["787", "939"], "SX": ["721"],
        "TC": ["649"], "TT": ["868"], "VC": ["784"], "VG": ["284"], "VI": ["340"],
    ]
}
