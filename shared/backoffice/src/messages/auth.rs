//! The new-password policy's refusals (`auth::PolicyError`) in words, with
//! the strength estimator's warning and suggestion.

use auth::PolicyError;
use envelope::{msg, Text};
use zxcvbn::feedback::{Suggestion, Warning};

/// Why a new password was refused.
pub fn policy(e: &PolicyError) -> Text {
    match e {
        PolicyError::TooShort => msg::auth::password::too_short(),
        PolicyError::TooLong => msg::auth::password::too_long(),
        PolicyError::Common => msg::auth::password::common(),
        PolicyError::Guessable => msg::auth::password::guessable(),
        PolicyError::Unchecked => msg::auth::password::unchecked(),
        PolicyError::Weak { warning, suggestion } => match ((*warning).map(warning_words), (*suggestion).map(suggestion_words)) {
            (None, None) => msg::auth::password::weak(),
            (Some(w), None) => msg::auth::password::weak_because(w),
            (None, Some(s)) => msg::auth::password::weak_advice(s),
            (Some(w), Some(s)) => msg::auth::password::weak_because_advice(s, w),
        },
    }
}

/// What the strength estimator found (zxcvbn's warning, lower case, no full stop).
fn warning_words(w: Warning) -> Text {
    match w {
        Warning::StraightRowsOfKeysAreEasyToGuess => msg::auth::password::warning::straight_rows(),
        Warning::ShortKeyboardPatternsAreEasyToGuess => msg::auth::password::warning::short_patterns(),
        Warning::RepeatsLikeAaaAreEasyToGuess => msg::auth::password::warning::repeats(),
        Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess => msg::auth::password::warning::repeated_runs(),
        Warning::ThisIsATop10Password => msg::auth::password::warning::top10(),
        Warning::ThisIsATop100Password => msg::auth::password::warning::top100(),
        Warning::ThisIsACommonPassword => msg::auth::password::warning::common(),
        Warning::ThisIsSimilarToACommonlyUsedPassword => msg::auth::password::warning::similar_to_common(),
        Warning::SequencesLikeAbcAreEasyToGuess => msg::auth::password::warning::sequences(),
        Warning::RecentYearsAreEasyToGuess => msg::auth::password::warning::recent_years(),
        Warning::AWordByItselfIsEasyToGuess => msg::auth::password::warning::one_word(),
        Warning::DatesAreOftenEasyToGuess => msg::auth::password::warning::dates(),
        Warning::NamesAndSurnamesByThemselvesAreEasyToGuess => msg::auth::password::warning::names_alone(),
        Warning::CommonNamesAndSurnamesAreEasyToGuess => msg::auth::password::warning::common_names(),
    }
}

/// What the strength estimator suggests (zxcvbn's suggestion).
fn suggestion_words(s: Suggestion) -> Text {
    match s {
        Suggestion::UseAFewWordsAvoidCommonPhrases => msg::auth::password::suggestion::few_words(),
        Suggestion::NoNeedForSymbolsDigitsOrUppercaseLetters => msg::auth::password::suggestion::no_need_for_symbols(),
        Suggestion::AddAnotherWordOrTwo => msg::auth::password::suggestion::another_word(),
        Suggestion::CapitalizationDoesntHelpVeryMuch => msg::auth::password::suggestion::capitals(),
        Suggestion::AllUppercaseIsAlmostAsEasyToGuessAsAllLowercase => msg::auth::password::suggestion::all_uppercase(),
        Suggestion::ReversedWordsArentMuchHarderToGuess => msg::auth::password::suggestion::reversed(),
        Suggestion::PredictableSubstitutionsDontHelpVeryMuch => msg::auth::password::suggestion::substitutions(),
        Suggestion::UseALongerKeyboardPatternWithMoreTurns => msg::auth::password::suggestion::longer_pattern(),
        Suggestion::AvoidRepeatedWordsAndCharacters => msg::auth::password::suggestion::avoid_repeats(),
        Suggestion::AvoidSequences => msg::auth::password::suggestion::avoid_sequences(),
        Suggestion::AvoidRecentYears => msg::auth::password::suggestion::avoid_recent_years(),
        Suggestion::AvoidYearsThatAreAssociatedWithYou => msg::auth::password::suggestion::avoid_your_years(),
        Suggestion::AvoidDatesAndYearsThatAreAssociatedWithYou => msg::auth::password::suggestion::avoid_your_dates(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The English words are the policy's own (`Display`) and zxcvbn's.
    #[test]
    fn english_words_are_the_policys_and_the_estimators_own() {
        let warnings = [
            Warning::StraightRowsOfKeysAreEasyToGuess,
            Warning::ShortKeyboardPatternsAreEasyToGuess,
            Warning::RepeatsLikeAaaAreEasyToGuess,
            Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess,
            Warning::ThisIsATop10Password,
            Warning::ThisIsATop100Password,
            Warning::ThisIsACommonPassword,
            Warning::ThisIsSimilarToACommonlyUsedPassword,
            Warning::SequencesLikeAbcAreEasyToGuess,
            Warning::RecentYearsAreEasyToGuess,
            Warning::AWordByItselfIsEasyToGuess,
            Warning::DatesAreOftenEasyToGuess,
            Warning::NamesAndSurnamesByThemselvesAreEasyToGuess,
            Warning::CommonNamesAndSurnamesAreEasyToGuess,
        ];
        let suggestions = [
            Suggestion::UseAFewWordsAvoidCommonPhrases,
            Suggestion::NoNeedForSymbolsDigitsOrUppercaseLetters,
            Suggestion::AddAnotherWordOrTwo,
            Suggestion::CapitalizationDoesntHelpVeryMuch,
            Suggestion::AllUppercaseIsAlmostAsEasyToGuessAsAllLowercase,
            Suggestion::ReversedWordsArentMuchHarderToGuess,
            Suggestion::PredictableSubstitutionsDontHelpVeryMuch,
            Suggestion::UseALongerKeyboardPatternWithMoreTurns,
            Suggestion::AvoidRepeatedWordsAndCharacters,
            Suggestion::AvoidSequences,
            Suggestion::AvoidRecentYears,
            Suggestion::AvoidYearsThatAreAssociatedWithYou,
            Suggestion::AvoidDatesAndYearsThatAreAssociatedWithYou,
        ];
        for w in warnings {
            assert_eq!(warning_words(w).en, w.to_string().trim_end_matches('.').to_lowercase(), "{w:?}");
        }
        for s in suggestions {
            assert_eq!(suggestion_words(s).en, s.to_string(), "{s:?}");
        }
        let mut every = vec![PolicyError::TooShort, PolicyError::TooLong, PolicyError::Common, PolicyError::Guessable, PolicyError::Unchecked];
        every.push(PolicyError::Weak { warning: None, suggestion: None });
        every.push(PolicyError::Weak { warning: Some(warnings[4]), suggestion: None });
        every.push(PolicyError::Weak { warning: None, suggestion: Some(suggestions[2]) });
        every.push(PolicyError::Weak { warning: Some(warnings[0]), suggestion: Some(suggestions[7]) });
        for e in every {
            assert_eq!(policy(&e).en, e.to_string(), "{e:?}");
            assert!(!policy(&e).zh.is_ascii(), "{e:?}");
        }
        assert_eq!(policy(&PolicyError::TooShort).zh, "密码不能少于12位");
    }
}
