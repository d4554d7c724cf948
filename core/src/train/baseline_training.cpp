#include "attn/train/baseline_training.hpp"

#include "attn/text/tokenizer.hpp"

namespace attn {

std::vector<std::vector<std::string>> baseline_documents(const std::vector<LabelledText>& examples) {
  std::vector<std::vector<std::string>> docs;
  docs.reserve(examples.size());
  for (const LabelledText& e : examples) docs.push_back(tokenize(e.text));
  return docs;
}

std::vector<int> labels_of(const std::vector<LabelledText>& examples) {
  std::vector<int> labels;
  labels.reserve(examples.size());
  for (const LabelledText& e : examples) labels.push_back(e.label);
  return labels;
}

BagOfNgramsClassifier train_bag_of_ngrams(const std::vector<LabelledText>& train, const BagOfNgramsConfig& config,
                                          const BagOfNgramsProgressFn& progress) {
  BagOfNgramsClassifier model;
  model.fit(baseline_documents(train), labels_of(train), config, progress);
  return model;
}

ClassificationMetrics evaluate_bag_of_ngrams(const BagOfNgramsClassifier& model,
                                             const std::vector<LabelledText>& examples) {
  return classification_metrics(model.predict_proba(baseline_documents(examples)), labels_of(examples));
}

BagOfNgramsExplanation explain_bag_of_ngrams(const BagOfNgramsClassifier& model, const std::string& text) {
  return model.explain(tokenize(text));
}

}  // namespace attn
