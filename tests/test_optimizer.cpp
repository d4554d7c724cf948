#include <doctest/doctest.h>

#include "attn/optim/adam.hpp"
#include "attn/optim/sgd.hpp"
#include "support/tensor_check.hpp"
#include "support/toy_parameters.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::ToyParameters;

TEST_CASE("optimizer.state_is_created_on_the_first_step_index_aligned") {
  ToyParameters toy({{1, 2, 3}, {4}});
  Adam adam;
  CHECK(adam.state().buffers[0].slots.empty());
  adam.step(toy.params);
  for (const StateBuffer& b : adam.state().buffers) {
    REQUIRE(b.slots.size() == 2);
    CHECK(b.slots[0].size() == 3);
    CHECK(b.slots[1].size() == 1);
  }
}

TEST_CASE("optimizer.a_list_with_other_sizes_throws_and_changes_nothing") {
  ToyParameters first({{1, 2}, {3, 4, 5}});
  ToyParameters other_size({{1, 2}, {3, 4, 5, 6}});
  ToyParameters fewer({{1, 2}});
  AdamW adamw(0.1f);
  adamw.step(first.params);
  other_size.set_grad(0, {1, 1});
  CHECK_THROWS_WITH_AS(adamw.step(other_size.params),
                       "AdamW.step: parameter 1 ('p1') has 4 values but the optimiser state was created for 3; an "
                       "optimiser belongs to one model",
                       ShapeError);
  check_close(other_size.values[0], {2}, {1, 2}, 0.f);  // not decayed, not stepped
  CHECK(adamw.step_count() == 1);
  CHECK_THROWS_WITH_AS(adamw.step(fewer.params),
                       "AdamW.step: got 1 parameters but the optimiser state was created for 2; an optimiser "
                       "belongs to one model",
                       ShapeError);
  SGD sgd(0.1f);  // no buffers, still checked
  sgd.step(first.params);
  CHECK_THROWS_AS(sgd.step(fewer.params), ShapeError);
}

TEST_CASE("optimizer.state_survives_new_addresses_and_load_state") {
  // Two identical runs: one optimiser steps twice; another takes step 1, its state is copied into
  // a third optimiser, which takes step 2 on a fresh copy of the parameters (new addresses).
  ToyParameters a({{1, -2}});
  Adam straight(0.1f);
  a.set_grad(0, {0.5f, 1.f});
  straight.step(a.params);
  a.set_grad(0, {-0.25f, 2.f});
  straight.step(a.params);

  ToyParameters b({{1, -2}});
  Adam before(0.1f);
  b.set_grad(0, {0.5f, 1.f});
  before.step(b.params);
  ToyParameters moved({{0, 0}});
  moved.values[0] = b.values[0];
  Adam after(0.1f);
  after.load_state(before.state());
  CHECK(after.step_count() == 1);
  moved.set_grad(0, {-0.25f, 2.f});
  after.step(moved.params);
  CHECK(moved.values[0](0) == a.values[0](0));
  CHECK(moved.values[0](1) == a.values[0](1));

  // The loaded state fixes the sizes, and an SGD state does not fit Adam.
  ToyParameters wrong({{1, 2, 3}});
  CHECK_THROWS_AS(after.step(wrong.params), ShapeError);
  SGD sgd(0.1f, 0.9f);
  CHECK_THROWS_WITH_AS(sgd.load_state(before.state()), "SGD.load_state: the state has 2 buffers but SGD keeps 1",
                       ShapeError);
  after.reset();
  CHECK(after.step_count() == 0);
  after.step(wrong.params);  // a fresh start accepts a new list
}
